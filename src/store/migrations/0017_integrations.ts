/**
 * Integrations (issue 17): a realm's code playgrounds (Zulip's RealmPlayground), its allowed
 * sign-up domains (RealmDomain, used when emails_restricted_to_domains is on) and the service
 * behind each outgoing-webhook bot (Service: the URL Parley POSTs to, the payload format, and the
 * token it sends). Realm domains written earlier into the realm's settings JSON are moved here.
 */
import type { Dialect } from "../db.js";
import type { AnyDb, Migration } from "./helpers.js";
import { bool, index, withId } from "./helpers.js";

export const integrations: Migration = {
  async up(db, d) {
    await withId(db.schema.createTable("realm_playgrounds"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("pygments_language", "text", (c) => c.notNull())
      .addColumn("url_template", "text", (c) => c.notNull())
      .execute();
    await index(db, "realm_playgrounds_realm_language_name", "realm_playgrounds", ["realm_id", "pygments_language", "name"], true);

    let domains = withId(db.schema.createTable("realm_domains"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realms.id"))
      .addColumn("domain", "text", (c) => c.notNull());
    domains = bool(domains, d, "allow_subdomains", false);
    await domains.execute();
    await index(db, "realm_domains_realm_domain", "realm_domains", ["realm_id", "domain"], true);

    await withId(db.schema.createTable("bot_services"), d)
      .addColumn("bot_id", "integer", (c) => c.notNull().references("users.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("base_url", "text", (c) => c.notNull())
      .addColumn("token", "text", (c) => c.notNull())
      .addColumn("interface", "integer", (c) => c.notNull())
      .execute();
    await index(db, "bot_services_bot", "bot_services", ["bot_id"]);

    await moveSettingsDomains(db, d);
  },
};

/** Domains an earlier version kept in realms.settings.realm_domains become rows. */
async function moveSettingsDomains(db: AnyDb, d: Dialect): Promise<void> {
  const realms = (await db.selectFrom("realms").select(["id", "settings"]).execute()) as { id: number; settings: string | null }[];
  for (const realm of realms) {
    const settings = JSON.parse(realm.settings ?? "{}") as Record<string, unknown>;
    const listed = Array.isArray(settings.realm_domains) ? (settings.realm_domains as { domain?: unknown; allow_subdomains?: unknown }[]) : [];
    const seen = new Set<string>();
    for (const entry of listed) {
      if (typeof entry?.domain !== "string" || seen.has(entry.domain)) continue;
      seen.add(entry.domain);
      const allow = entry.allow_subdomains === true;
      await db.insertInto("realm_domains").values({ realm_id: realm.id, domain: entry.domain, allow_subdomains: d === "sqlite" ? Number(allow) : allow }).execute();
    }
    if ("realm_domains" in settings) {
      delete settings.realm_domains;
      await db.updateTable("realms").set({ settings: JSON.stringify(settings) }).where("id", "=", realm.id).execute();
    }
  }
}
