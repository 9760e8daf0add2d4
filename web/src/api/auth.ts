/**
 * Signing in and out (issue 10). The API key from POST /fetch_api_key is kept in localStorage, so
 * every tab of the browser is signed in until logging out (issue 20; sessionStorage asked again in
 * each new tab). Right after joining through an invitation link, the join form has started a
 * cookie session, and POST /accounts/api_key/ turns it into the key. POST /accounts/login/ with the same form fields also
 * sets an HttpOnly session cookie, which lets <img> tags load /user_uploads previews; a server
 * without that route (404) still works, only image previews then need the API's temporary URLs.
 */
import { publicRequest, type Credentials } from "./client";

const STORAGE_KEY = "parley.credentials";

export function loadCredentials(): Credentials | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null") as Credentials | null;
    return stored && typeof stored.email === "string" && typeof stored.apiKey === "string" ? stored : null;
  } catch {
    return null;
  }
}

export function saveCredentials(credentials: Credentials): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(credentials));
}

export function clearCredentials(): void {
  localStorage.removeItem(STORAGE_KEY);
}

async function postAccountsForm(path: string, fields: Record<string, string>): Promise<void> {
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  // 404: the server has no cookie session; uploads are then shown as links. Other failures are
  // not fatal either: the API key alone is enough for everything but inline image previews.
  void response.body?.cancel();
}

/** Exchanges email and password for an API key, then opens the cookie session for uploads. */
export async function logIn(email: string, password: string): Promise<Credentials> {
  const { api_key, email: canonicalEmail } = await publicRequest<{ api_key: string; email: string }>("POST", "/fetch_api_key", { username: email, password });
  const credentials = { email: canonicalEmail, apiKey: api_key };
  await postAccountsForm("/accounts/login/", { username: email, password }).catch(() => undefined);
  saveCredentials(credentials);
  return credentials;
}

/** The key of the cookie session's user (after joining), or null without a session. */
export async function credentialsFromSession(): Promise<Credentials | null> {
  const response = await fetch("/accounts/api_key/", { method: "POST", credentials: "same-origin", headers: { Accept: "application/json" } }).catch(() => null);
  if (!response?.ok) return null;
  const body = (await response.json().catch(() => null)) as { api_key?: unknown; email?: unknown } | null;
  if (typeof body?.api_key !== "string" || typeof body.email !== "string") return null;
  const credentials = { email: body.email, apiKey: body.api_key };
  saveCredentials(credentials);
  return credentials;
}

/** Ends the cookie session and forgets the key (the caller deletes its event queue first). */
export async function logOut(): Promise<void> {
  clearCredentials();
  await postAccountsForm("/accounts/logout/", {}).catch(() => undefined);
}
