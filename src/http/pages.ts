/**
 * The join pages (issue 6, item 8): a small sign-up form, its success page and the error page for
 * dead links. Plain HTML with labelled fields, a live error region and no script; every value
 * taken from data is escaped.
 */
import { realmUrl } from "../lib/realm-url.js";
import type { RealmRow, UserRow } from "../store/types.js";

/** Headers of these pages: never cached, no Referer (their URLs hold secrets), no script. */
export const PAGE_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The web client's login card (web/src/styles/base.css), so joining looks like signing in (issue 20). */
const STYLE = `
* { box-sizing: border-box; }
html, body { height: 100%; margin: 0; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1d2330;
  display: grid; place-items: center; padding: 24px; background: linear-gradient(160deg, #1f2433 0%, #33408c 100%); }
main { width: min(420px, 100%); background: #fff; border-radius: 14px; padding: 32px; box-shadow: 0 6px 24px rgba(20, 25, 40, .12); }
.brand { width: 44px; height: 44px; border-radius: 12px; background: #3d5afe; color: #fff; font-weight: 800; display: grid; place-items: center; font-size: 22px; }
h1 { font-size: 22px; margin: 12px 0; }
label { display: block; margin-top: 12px; font-weight: 500; font-size: 14px; }
input { width: 100%; padding: 8px 10px; font: inherit; border: 1px solid #8a93a3; border-radius: 6px; margin-top: 4px; }
input:focus { border-color: #3d5afe; outline: none; box-shadow: 0 0 0 3px #e8ecff; }
input[readonly] { background: #f1f3f6; }
button, .button { display: block; width: 100%; margin-top: 20px; padding: 10px; font: inherit; font-weight: 500; text-align: center; text-decoration: none;
  border: 0; border-radius: 6px; background: #3d5afe; color: #fff; cursor: pointer; }
button:hover, .button:hover { background: #2f49e0; }
:focus-visible { outline: 2px solid #3d5afe; outline-offset: 2px; }
a { color: #2f49e0; }
.error { color: #a40e26; background: #ffebe9; padding: .75rem; border-radius: 6px; }
.hint { color: #5f6878; font-size: .9rem; margin: 4px 0 0; }
code { font-size: .85em; overflow-wrap: anywhere; }
`;

/** A whole page around `body` (HTML the caller escaped), in the join pages' style (password reset uses it too). */
export function page(title: string, body: string, head = ""): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">${head}
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="brand" aria-hidden="true">P</div>
${body}
</main>
</body>
</html>
`;
}

export interface JoinFormView {
  realm: RealmRow;
  referrer: UserRow;
  /** The invited address (fixed), or null for a reusable link (the visitor types it). */
  fixedEmail: string | null;
  values?: { email?: string; fullName?: string };
  error?: string;
}

export function joinFormPage(view: JoinFormView): string {
  const { realm, referrer } = view;
  const email = view.fixedEmail ?? view.values?.email ?? "";
  const emailHint = view.fixedEmail === null ? "" : `<p class="hint" id="email-hint">This invitation was sent to this address.</p>`;
  const error = view.error ? `<p class="error" role="alert" id="form-error">${escapeHtml(view.error)}</p>` : "";
  const describedBy = view.error ? ` aria-describedby="form-error"` : "";
  return page(
    `Join ${realm.name}`,
    `<h1>Join ${escapeHtml(realm.name)}</h1>
<p>${escapeHtml(referrer.full_name)} invited you to join <strong>${escapeHtml(realm.name)}</strong>. Choose your name and a password to create your account.</p>
${error}
<form method="post"${describedBy}>
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(email)}"${view.fixedEmail === null ? "" : ' readonly aria-describedby="email-hint"'}>
${emailHint}
<label for="full_name">Full name</label>
<input id="full_name" name="full_name" type="text" autocomplete="name" required maxlength="100" value="${escapeHtml(view.values?.fullName ?? "")}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="6" aria-describedby="password-hint">
<p class="hint" id="password-hint">At least 6 characters.</p>
<button type="submit">Create account</button>
</form>`,
  );
}

/**
 * The welcome page. With `signedIn` (the join started a session) it moves on to the web client
 * by itself after a moment (a meta refresh: the pages run no script), which signs in from the
 * session (issue 20); the button does the same at once.
 */
export function joinedPage(externalHost: string, realm: RealmRow, email: string, fullName: string, signedIn = false): string {
  const url = realmUrl(externalHost, realm.string_id);
  const next = signedIn
    ? `<p>Your account in <strong>${escapeHtml(realm.name)}</strong> is ready, and you are logged in as <strong>${escapeHtml(email)}</strong>.</p>
<a class="button" href="/#/joined">Continue to ${escapeHtml(realm.name)}</a>`
    : `<p>Your account in <strong>${escapeHtml(realm.name)}</strong> is ready. Log in at <a href="${escapeHtml(url)}">${escapeHtml(url)}</a> with <strong>${escapeHtml(email)}</strong> and the password you chose.</p>`;
  return page(
    `Welcome to ${realm.name}`,
    `<h1>Welcome, ${escapeHtml(fullName)}!</h1>
${next}
<p class="hint">API clients and bots: get your API key with <code>POST ${escapeHtml(url)}/api/v1/fetch_api_key</code>, sending your email address as <code>username</code> and your password.</p>`,
    signedIn ? `\n<meta http-equiv="refresh" content="1; url=/#/joined">` : "",
  );
}

export function joinErrorPage(message: string): string {
  return page("Invitation link", `<h1>This invitation link cannot be used</h1>\n<p role="alert">${escapeHtml(message)}</p>\n<p>Ask the person who invited you for a new invitation.</p>`);
}
