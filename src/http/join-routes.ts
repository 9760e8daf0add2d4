/**
 * The join link `{realm_url}/join/{confirmation_key}/` outside /api/v1 (issue 6, item 8): GET
 * serves the sign-up form, POST (a urlencoded form) creates the account. Pages are HTML, never
 * cached, and sent with no Referer (the URL holds the invitation's secret key). A form mistake
 * shows the form again with the message (400); a dead link shows an error page (404 or 410).
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { acceptInvitation, getJoinableInvite, type JoinableInvite } from "../actions/invites/invite-join.js";
import { checkLogin } from "../actions/auth/sessions.js";
import { setSessionCookie } from "./session-auth.js";
import type { AppDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import { subdomainFromHost } from "./realm-host.js";
import { PAGE_HEADERS, joinedPage, joinErrorPage, joinFormPage, type JoinFormView } from "./pages.js";

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(html);
}

/** An error of a dead or unknown link (not a form mistake) as its page; anything else is rethrown. */
function linkErrorPage(reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof ApiError && err.status !== 400) return sendPage(reply, err.status, joinErrorPage(err.message));
  throw err;
}

const field = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : "";
};

/** The form for a link that can still be used, or the error page of a dead one. */
async function showForm(deps: AppDeps, reply: FastifyReply, subdomain: string, key: string, status: number, extra: Partial<JoinFormView> = {}) {
  let joinable: JoinableInvite;
  try {
    joinable = await getJoinableInvite(deps, subdomain, key);
  } catch (err) {
    return linkErrorPage(reply, err);
  }
  const fixedEmail = joinable.invite.is_multiuse ? null : joinable.invite.email;
  return sendPage(reply, status, joinFormPage({ realm: joinable.realm, referrer: joinable.referrer, fixedEmail, ...extra }));
}

export function registerJoinRoutes(app: FastifyInstance, deps: AppDeps): void {
  const subdomainOf = (host: string | undefined) => subdomainFromHost(host, deps.config.externalHost);
  for (const url of ["/join/:key/", "/join/:key"]) {
    app.get<{ Params: { key: string } }>(url, (request, reply) => showForm(deps, reply, subdomainOf(request.headers.host), request.params.key, 200));

    app.post<{ Params: { key: string } }>(url, async (request, reply) => {
      const subdomain = subdomainOf(request.headers.host);
      const form = { fullName: field(request.body, "full_name"), password: field(request.body, "password"), email: field(request.body, "email") };
      try {
        const joined = await acceptInvitation(deps, subdomain, request.params.key, form);
        // Signed in right away (issue 20): a session cookie, which the web client turns into its
        // API key (`#/joined` asks POST /accounts/api_key/). Without it, the page says to log in.
        const session = await checkLogin(deps, subdomain, joined.email, form.password).catch(() => null);
        if (session) setSessionCookie(deps, request, reply, session.token);
        return sendPage(reply, 200, joinedPage(deps.config.externalHost, joined.realm, joined.email, joined.fullName, session !== null));
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 400) return linkErrorPage(reply, err);
        const values = { email: form.email, fullName: form.fullName };
        return showForm(deps, reply, subdomain, request.params.key, 400, { values, error: err.message });
      }
    });
  }
}
