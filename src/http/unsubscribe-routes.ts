/**
 * One-click unsubscribe at the site root, where Zulip has it (zerver/views/unsubscribe.py):
 * `GET /accounts/unsubscribe/{type}/{token}` turns the email type's setting off and says so;
 * `POST` to the same URL does the same for mail readers (RFC 8058 `List-Unsubscribe-Post`, which
 * sends `List-Unsubscribe=One-Click` and reads nothing back). No login: the signed token names
 * the account (actions/notifications/unsubscribe-links.ts). A bad or forged link gets a 400 page
 * and changes nothing. Pages are HTML with no script, never cached, sent with no Referer.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { doUnsubscribeByLink, type UnsubscribeType } from "../actions/notifications/unsubscribe-links.js";
import type { AppDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import { PAGE_HEADERS, escapeHtml, page } from "./pages.js";
import { limitByAddress } from "./session-routes.js";

const WHAT: Record<UnsubscribeType, string> = {
  missed_messages: "missed-message emails (direct messages and mentions while you are away)",
  digest: "digest emails",
  login: "new-login emails",
  marketing: "marketing emails",
};

type Req = FastifyRequest<{ Params: { type: string; token: string } }>;

export function registerUnsubscribeRoutes(app: FastifyInstance, deps: AppDeps): void {
  const handle = async (req: Req, reply: FastifyReply) => {
    await limitByAddress(deps, req, reply);
    reply.code(200).headers(PAGE_HEADERS);
    try {
      const { user, type } = await doUnsubscribeByLink(deps, req.params.type, req.params.token);
      return reply.send(
        page("Unsubscribed", `<h1>You are unsubscribed</h1>\n<p><strong>${escapeHtml(user.delivery_email)}</strong> will get no more ${escapeHtml(WHAT[type])}. You can turn them on again in your notification settings.</p>`),
      );
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return reply.code(400).send(page("Unsubscribe", `<h1>This link cannot be used</h1>\n<p role="alert">${escapeHtml(err.message)}</p>`));
    }
  };
  for (const url of ["/accounts/unsubscribe/:type/:token", "/accounts/unsubscribe/:type/:token/"]) {
    app.get<{ Params: { type: string; token: string } }>(url, handle);
    app.post<{ Params: { type: string; token: string } }>(url, handle);
  }
}
