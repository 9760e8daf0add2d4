/** Code playgrounds, allowed domains and Welcome Bot's test message (Zulip's *-code-playground, *-realm-domain and test-welcome-bot-custom-message). */
import { addPlayground, MAX_PLAYGROUND_NAME_LENGTH, MAX_PLAYGROUND_URL_TEMPLATE_LENGTH, MAX_PYGMENTS_LANGUAGE_LENGTH, removePlayground } from "../actions/realm/realm-playgrounds.js";
import { addRealmDomain, changeRealmDomain, getRealmDomains, removeRealmDomain } from "../actions/realm/realm-domains.js";
import { MAX_WELCOME_MESSAGE_LENGTH } from "../actions/invites/invite-checks.js";
import { sendTestWelcomeMessage } from "../actions/bots/welcome-bot.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import { readTx } from "../store/db.js";

export const addCodePlayground = endpoint({
  method: "POST",
  path: "/realm/playgrounds",
  auth: "admin",
  params: {
    name: p.str({ maxLength: MAX_PLAYGROUND_NAME_LENGTH }),
    pygments_language: p.str({ maxLength: MAX_PYGMENTS_LANGUAGE_LENGTH }),
    url_template: p.str({ maxLength: MAX_PLAYGROUND_URL_TEMPLATE_LENGTH }),
  },
  async handler(ctx, params) {
    return { id: await addPlayground(ctx.deps, ctx.realm, { name: params.name, pygmentsLanguage: params.pygments_language, urlTemplate: params.url_template }) };
  },
});

export const removeCodePlayground = endpoint({
  method: "DELETE",
  path: "/realm/playgrounds/:playground_id",
  auth: "admin",
  params: { playground_id: p.int().path() },
  async handler(ctx, { playground_id }) {
    await removePlayground(ctx.deps, ctx.realm, playground_id);
  },
});

export const listRealmDomainsEndpoint = endpoint({
  method: "GET",
  path: "/realm/domains",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { domains: await getRealmDomains(readTx(ctx.deps.store), ctx.realm.id) };
  },
});

export const addRealmDomainEndpoint = endpoint({
  method: "POST",
  path: "/realm/domains",
  auth: "owner",
  params: { domain: p.str({ maxLength: 1000 }), allow_subdomains: p.bool() },
  async handler(ctx, { domain, allow_subdomains }) {
    return { new_domain: await addRealmDomain(ctx.deps, ctx.realm, domain, allow_subdomains) };
  },
});

export const patchRealmDomainEndpoint = endpoint({
  method: "PATCH",
  path: "/realm/domains/:domain",
  auth: "owner",
  params: { domain: p.str().path(), allow_subdomains: p.bool() },
  async handler(ctx, { domain, allow_subdomains }) {
    await changeRealmDomain(ctx.deps, ctx.realm, domain, allow_subdomains);
  },
});

export const deleteRealmDomainEndpoint = endpoint({
  method: "DELETE",
  path: "/realm/domains/:domain",
  auth: "owner",
  params: { domain: p.str().path() },
  async handler(ctx, { domain }) {
    await removeRealmDomain(ctx.deps, ctx.realm, ctx.user, domain);
  },
});

export const testWelcomeBotMessage = endpoint({
  method: "POST",
  path: "/realm/test_welcome_bot_custom_message",
  auth: "admin",
  params: { welcome_message_custom_text: p.str({ maxLength: MAX_WELCOME_MESSAGE_LENGTH }) },
  async handler(ctx, { welcome_message_custom_text }) {
    return { message_id: await sendTestWelcomeMessage(ctx.deps, ctx.realm, ctx.user, welcome_message_custom_text) };
  },
});

export const realmIntegrationEndpoints = [
  testWelcomeBotMessage,
  addCodePlayground,
  removeCodePlayground,
  listRealmDomainsEndpoint,
  addRealmDomainEndpoint,
  patchRealmDomainEndpoint,
  deleteRealmDomainEndpoint,
];
