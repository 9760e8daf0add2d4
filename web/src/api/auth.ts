/**
 * Signing in and out (issue 10). The API key from POST /fetch_api_key is kept in sessionStorage,
 * so it lives as long as the browser tab. POST /accounts/login/ with the same form fields also
 * sets an HttpOnly session cookie, which lets <img> tags load /user_uploads previews; a server
 * without that route (404) still works, only image previews then need the API's temporary URLs.
 */
import { publicRequest, type Credentials } from "./client";

const STORAGE_KEY = "parley.credentials";

export function loadCredentials(): Credentials | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null") as Credentials | null;
    return stored && typeof stored.email === "string" && typeof stored.apiKey === "string" ? stored : null;
  } catch {
    return null;
  }
}

export function saveCredentials(credentials: Credentials): void {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credentials));
}

export function clearCredentials(): void {
  sessionStorage.removeItem(STORAGE_KEY);
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

/** Ends the cookie session and forgets the key (the caller deletes its event queue first). */
export async function logOut(): Promise<void> {
  clearCredentials();
  await postAccountsForm("/accounts/logout/", {}).catch(() => undefined);
}
