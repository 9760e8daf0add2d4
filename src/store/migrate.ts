/** Runs the versioned migrations (Kysely's Migrator: ordered, recorded, locked on PostgreSQL). */
import { Migrator, sql, type Migration as KyselyMigration, type MigrationResultSet } from "kysely";
import type { Store } from "./db.js";
import type { Migration } from "./migrations/helpers.js";
import { realmsUsers } from "./migrations/0001_realms_users.js";
import { channelsMessages } from "./migrations/0002_channels_messages.js";
import { orgData } from "./migrations/0003_org_data.js";
import { mentionLookup } from "./migrations/0004_mention_lookup.js";
import { sessionsThumbnails } from "./migrations/0005_sessions_thumbnails.js";
import { rowVersions } from "./migrations/0006_row_versions.js";
import { deployment } from "./migrations/0007_deployment.js";
import { realmVersions } from "./migrations/0008_realm_versions.js";
import { canCreateUsers } from "./migrations/0009_can_create_users.js";
import { clientEndpoints } from "./migrations/0010_client_endpoints.js";
import { zulipExtraEmoji } from "./migrations/0011_zulip_extra_emoji.js";
import { oneToOneDmGroups } from "./migrations/0012_one_to_one_dm_groups.js";
import { channelTraffic } from "./migrations/0013_channel_traffic.js";
import { scheduledMessages } from "./migrations/0014_scheduled_messages.js";
import { realmExports } from "./migrations/0015_realm_exports.js";
import { navigationViews } from "./migrations/0016_navigation_views.js";
import { mutedUserLookup } from "./migrations/0016a_muted_user_lookup.js";
import { integrations } from "./migrations/0017_integrations.js";
import { pendingNotifications } from "./migrations/0018_pending_notifications.js";
import { videoCallTokens } from "./migrations/0019_video_call_tokens.js";
import { digestsQueueActivity } from "./migrations/0020_digests_queue_activity.js";
import { realmUuid } from "./migrations/0022_realm_uuid.js";
import { profileFieldUserMatching } from "./migrations/0022a_profile_field_user_matching.js";
import { userSettingEdits } from "./migrations/0023_user_setting_edits.js";

const MIGRATIONS: Record<string, Migration> = {
  "0001_realms_users": realmsUsers,
  "0002_channels_messages": channelsMessages,
  "0003_org_data": orgData,
  "0004_mention_lookup": mentionLookup,
  "0005_sessions_thumbnails": sessionsThumbnails,
  "0006_row_versions": rowVersions,
  "0007_deployment": deployment,
  "0008_realm_versions": realmVersions,
  "0009_can_create_users": canCreateUsers,
  "0010_client_endpoints": clientEndpoints,
  "0011_zulip_extra_emoji": zulipExtraEmoji,
  "0012_one_to_one_dm_groups": oneToOneDmGroups,
  "0013_channel_traffic": channelTraffic,
  "0014_scheduled_messages": scheduledMessages,
  "0015_realm_exports": realmExports,
  "0016_navigation_views": navigationViews,
  "0016a_muted_user_lookup": mutedUserLookup,
  "0017_integrations": integrations,
  "0018_pending_notifications": pendingNotifications,
  "0019_video_call_tokens": videoCallTokens,
  "0020_digests_queue_activity": digestsQueueActivity,
  "0022_realm_uuid": realmUuid,
  "0022a_profile_field_user_matching": profileFieldUserMatching,
  "0023_user_setting_edits": userSettingEdits,
};

/** Every migration's name, oldest first. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);
/** The newest migration this version knows: the level a migrated store is at. */
export const LATEST_MIGRATION = MIGRATION_NAMES.at(-1) as string;

/** Whether this version knows the migration (a backup from a newer version names one it does not). */
export function isKnownMigration(name: string): boolean {
  return Object.hasOwn(MIGRATIONS, name);
}

async function migrator(store: Store): Promise<Migrator> {
  const migrations: Record<string, KyselyMigration> = {};
  for (const [name, m] of Object.entries(MIGRATIONS)) {
    migrations[name] = { up: (db) => m.up(db, store.dialect) };
  }
  // On PostgreSQL, keep the migration bookkeeping in the connection's own schema: Kysely would
  // otherwise find another schema's tables in a shared database and skip creating its own.
  const schema =
    store.dialect === "postgres"
      ? (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(store.db)).rows[0].schema
      : undefined;
  return new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrations },
    // Numbers are handed out to parallel branches, so one may land after a higher one was applied
    // (0015 after 0016): run it then rather than refuse. Each migration touches only its own objects.
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

function applied(outcome: MigrationResultSet): string[] {
  if (outcome.error) throw outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error));
  return (outcome.results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Applies every pending migration; returns the names applied. Throws on the first failure. */
export async function migrateToLatest(store: Store): Promise<string[]> {
  return applied(await (await migrator(store)).migrateToLatest());
}

/** Applies the migrations up to and including `name` (tests build an older version's schema with it). */
export async function migrateUpTo(store: Store, name: string): Promise<string[]> {
  return applied(await (await migrator(store)).migrateTo(name));
}

/** The newest migration applied to the store, or null for a store never migrated. */
export async function migrationLevel(store: Store): Promise<string | null> {
  const done = (await (await migrator(store)).getMigrations()).filter((m) => m.executedAt !== undefined);
  return done.at(-1)?.name ?? null;
}
