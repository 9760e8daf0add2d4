/** Server-level, unauthenticated information: `GET /server_settings` (readiness probe too). */
import { endpoint } from "../http/endpoint.js";
import { realmIconUrl } from "../lib/avatar-urls.js";
import { realmUrl } from "../lib/realm-url.js";
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from "../version.js";

export const getServerSettings = endpoint({
  method: "GET",
  path: "/server_settings",
  auth: "none",
  params: {},
  async handler(ctx) {
    const { realm } = ctx;
    const passwordAuth = realm ? realm.password_auth_enabled : true;
    const settings: Record<string, unknown> = {
      authentication_methods: {
        password: passwordAuth,
        dev: false,
        email: passwordAuth,
        ldap: false,
        remoteuser: false,
        github: false,
        azuread: false,
        gitlab: false,
        apple: false,
        google: false,
        saml: false,
        "openid connect": false,
        // Discord login (FL 488): Parley has no external authentication.
        discord: false,
      },
      external_authentication_methods: [],
      zulip_feature_level: ZULIP_FEATURE_LEVEL,
      zulip_version: ZULIP_VERSION,
      zulip_merge_base: ZULIP_MERGE_BASE,
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: passwordAuth,
      require_email_format_usernames: true,
    };
    if (realm) {
      const url = realmUrl(ctx.deps.config.externalHost, realm.string_id);
      Object.assign(settings, {
        realm_uri: url,
        realm_url: url,
        realm_name: realm.name,
        realm_icon: realmIconUrl(realm, ctx.deps.config.enableGravatar),
        realm_description: realm.description,
        realm_web_public_access_enabled: realm.enable_spectator_access,
      });
    }
    return settings;
  },
});

export const serverEndpoints = [getServerSettings];
