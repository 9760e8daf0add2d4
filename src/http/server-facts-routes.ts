/**
 * `GET /parley/server-facts`: what Parley's own web client needs to know about this server's
 * configuration that Zulip's API has no place for. Today one fact, for administrators only:
 * `email_delivery` is "smtp" when SMTP_URL is set and "file" when outgoing mail is only written
 * as .eml files under VAR_DIR/mail (src/mail/transport.ts), so the invitation page can say that
 * invitations are not really emailed.
 *
 * It lives outside /api/v1 on purpose: Zulip's documented responses stay exactly as Zulip's
 * clients parse them, and no Zulip client ever asks for this path. Authentication is the API's
 * HTTP Basic (or the web session cookie); the answer is Zulip's success envelope.
 */
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../deps.js";
import { mustBeAdmin } from "../errors.js";
import { isRealmAdmin } from "../policy/roles.js";
import { sendSuccess } from "./respond.js";
import { authenticateBasicOrSession } from "./session-auth.js";

export const SERVER_FACTS_PATH = "/parley/server-facts";

export function registerServerFactsRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get(SERVER_FACTS_PATH, async (request, reply) => {
    const { user } = await authenticateBasicOrSession(deps, request);
    if (!isRealmAdmin(user)) throw mustBeAdmin();
    reply.header("Cache-Control", "no-store");
    return sendSuccess(reply, { email_delivery: deps.config.smtpUrl ? "smtp" : "file" }, []);
  });
}
