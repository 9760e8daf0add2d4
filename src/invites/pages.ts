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

const STYLE = `
body { font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; color: #1f2328; }
label { display: block; margin-top: 1rem; font-weight: 600; }
input { width: 100%; padding: .5rem; font-size: 1rem; box-sizing: border-box; border: 1px solid #6e7781; border-radius: 4px; }
input[readonly] { background: #f0f0f0; }
button { margin-top: 1.5rem; padding: .6rem 1.2rem; font-size: 1rem; border: 0; border-radius: 4px; background: #0b57d0; color: #fff; cursor: pointer; }
button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.error { color: #a40e26; background: #ffebe9; padding: .75rem; border-radius: 4px; }
.hint { color: #57606a; font-size: .9rem; }
`;

/** A whole page around `body` (HTML the caller escaped), in the join pages' style (password reset uses it too). */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
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

export function joinedPage(externalHost: string, realm: RealmRow, email: string, fullName: string): string {
  const url = realmUrl(externalHost, realm.string_id);
  return page(
    `Welcome to ${realm.name}`,
    `<h1>Welcome, ${escapeHtml(fullName)}!</h1>
<p>Your account in <strong>${escapeHtml(realm.name)}</strong> is ready. Log in at <a href="${escapeHtml(url)}">${escapeHtml(url)}</a> with <strong>${escapeHtml(email)}</strong> and the password you chose.</p>
<p class="hint">API clients and bots: get your API key with <code>POST ${escapeHtml(url)}/api/v1/fetch_api_key</code>, sending your email address as <code>username</code> and your password.</p>`,
  );
}

export function joinErrorPage(message: string): string {
  return page("Invitation link", `<h1>This invitation link cannot be used</h1>\n<p role="alert">${escapeHtml(message)}</p>\n<p>Ask the person who invited you for a new invitation.</p>`);
}
