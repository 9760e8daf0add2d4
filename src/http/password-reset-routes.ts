/**
 * Password reset at the site root, where Zulip has it (outside /api/v1):
 * - `POST /accounts/password/reset/` with `email`: the "forgot password" form; mails a reset link
 *   (actions/auth/passwords.ts) and answers success whether or not the address has an account.
 * - `GET /accounts/password/reset/{token}/`: the form to choose a new password (or an error page
 *   for a dead link); `POST` to it with `new_password` sets it, after which the link is dead.
 * Pages are HTML with no script, never cached, sent with no Referer (the URL holds the token).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { checkPasswordResetLink, MIN_PASSWORD_LENGTH, requestPasswordReset, resetPasswordWithToken } from "../actions/auth/passwords.js";
import type { AppDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import { PAGE_HEADERS, escapeHtml, page } from "./pages.js";
import { p, parseParams } from "./params.js";
import { subdomainFromHost } from "./realm-host.js";
import { collectRawParams } from "./request-params.js";
import { sendSuccess } from "./respond.js";
import { checkSameOrigin } from "./session-auth.js";
import { limitByAddress } from "./session-routes.js";

const send = (reply: FastifyReply, status: number, title: string, body: string) => reply.code(status).headers(PAGE_HEADERS).send(page(title, body));

function formPage(reply: FastifyReply, status: number, email: string, error?: string): FastifyReply {
  const alert = error ? `<p class="error" role="alert" id="form-error">${escapeHtml(error)}</p>` : "";
  return send(
    reply,
    status,
    "Choose a new password",
    `<h1>Choose a new password</h1>
<p>For <strong>${escapeHtml(email)}</strong>.</p>
${alert}
<form method="post"${error ? ' aria-describedby="form-error"' : ""}>
<label for="new_password">New password</label>
<input id="new_password" name="new_password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" aria-describedby="password-hint">
<p class="hint" id="password-hint">At least ${MIN_PASSWORD_LENGTH} characters.</p>
<button type="submit">Set password</button>
</form>`,
  );
}

const deadLink = (reply: FastifyReply, err: ApiError) =>
  send(reply, 400, "Password reset link", `<h1>This link cannot be used</h1>\n<p role="alert">${escapeHtml(err.message)}</p>`);

const newPasswordOf = (body: unknown): string => {
  const value = (body as Record<string, unknown> | undefined)?.new_password;
  return typeof value === "string" ? value : "";
};

export function registerPasswordResetRoutes(app: FastifyInstance, deps: AppDeps): void {
  const request = async (req: FastifyRequest, reply: FastifyReply) => {
    checkSameOrigin(req);
    await limitByAddress(deps, req, reply);
    const { values, ignored } = parseParams({ email: p.str() }, await collectRawParams(req, false), {});
    await requestPasswordReset(deps, subdomainFromHost(req.headers.host, deps.config.externalHost), values.email);
    reply.header("Cache-Control", "no-store");
    return sendSuccess(reply, {}, ignored);
  };
  for (const url of ["/accounts/password/reset/", "/accounts/password/reset"]) app.post(url, request);

  for (const url of ["/accounts/password/reset/:token/", "/accounts/password/reset/:token"]) {
    app.get<{ Params: { token: string } }>(url, async (req, reply) => {
      try {
        const { user } = await checkPasswordResetLink(deps, req.params.token);
        return formPage(reply, 200, user.delivery_email);
      } catch (err) {
        if (err instanceof ApiError) return deadLink(reply, err);
        throw err;
      }
    });
    app.post<{ Params: { token: string } }>(url, async (req, reply) => {
      let email: string;
      try {
        email = (await checkPasswordResetLink(deps, req.params.token)).user.delivery_email;
      } catch (err) {
        if (err instanceof ApiError) return deadLink(reply, err);
        throw err;
      }
      try {
        await resetPasswordWithToken(deps, req.params.token, newPasswordOf(req.body));
      } catch (err) {
        if (err instanceof ApiError) return formPage(reply, 400, email, err.message);
        throw err;
      }
      return send(reply, 200, "Password changed", `<h1>Your password was changed</h1>\n<p>Log in with <strong>${escapeHtml(email)}</strong> and your new password.</p>`);
    });
  }
}
