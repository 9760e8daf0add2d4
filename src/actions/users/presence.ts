/**
 * Presence (Zulip's update-presence / get-presence). Clients ping every 60 s, which makes this the
 * most frequent request of a deployment, so pings are coalesced in memory and written in one
 * batch per flush interval; a ping that changes nothing visible writes nothing at all. Reads flush
 * first, so they always see the latest state.
 *
 * Under can_access_all_users_group guests see every user id's availability, as in Zulip, unless
 * the server sets CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE (config
 * canAccessAllUsersGroupLimitsPresence): then presence data and events reach a guest only for
 * the users they may access (FL 228).
 */
import { loadUserAccess, userIdsWhoCanAccess } from "../../access/users.js";
import type { AppDeps } from "../../deps.js";
import type { EventBus } from "../../events/bus.js";
import { transaction, readTx, type Store, type Tx } from "../../store/db.js";
import {
  getMaxPresenceUpdateId,
  getPresenceRow,
  getPresenceRows,
  upsertPresence,
  type PresenceRow,
} from "../../store/presence.js";
import type { UserRow } from "../../store/types.js";
import { getActiveUserIds } from "../../store/users.js";

/** Zulip's presence constants (zulip-facts section c). */
export const PRESENCE_PING_INTERVAL_SECONDS = 60;
export const PRESENCE_OFFLINE_THRESHOLD_SECONDS = 200;
/** Zulip's USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS: larger realms get no presence events. */
export const PRESENCE_EVENT_USER_LIMIT = 100;
/** How far back GET /realm/presence looks (Zulip: 14 days by default). */
const PRESENCE_HISTORY_SECONDS = 14 * 86400;

interface Pending {
  user: UserRow;
  active: boolean;
  now: number;
}

export function presentPresenceModern(row: PresenceRow): { active_timestamp: number; idle_timestamp: number } {
  return { active_timestamp: row.last_active_time ?? 0, idle_timestamp: row.last_connected_time ?? 0 };
}

/** Zulip's legacy per-client format, keyed by "website" plus the aggregate. */
export function presentPresenceLegacy(row: PresenceRow): Record<string, unknown> {
  const activeRecently = (row.last_active_time ?? 0) >= (row.last_connected_time ?? 0) - PRESENCE_OFFLINE_THRESHOLD_SECONDS;
  const status = activeRecently ? "active" : "idle";
  const timestamp = Math.max(row.last_active_time ?? 0, row.last_connected_time ?? 0);
  return {
    aggregated: { client: "website", status, timestamp },
    website: { client: "website", status, timestamp, pushable: false },
  };
}

/**
 * GET /users/{user_id_or_email}/presence: the legacy keys with only `status` and `timestamp`
 * (the OpenAPI object forbids anything else; Zulip's view pops `client` and `pushable`), and an
 * aggregate older than the offline threshold reads "offline", as Zulip's get_presence_backend says.
 */
export function presentUserPresence(row: PresenceRow, now: number): Record<string, { status: string; timestamp: number }> {
  const out: Record<string, { status: string; timestamp: number }> = {};
  for (const [key, value] of Object.entries(presentPresenceLegacy(row))) {
    const { status, timestamp } = value as { status: string; timestamp: number };
    out[key] = { status, timestamp };
  }
  if (now - out.aggregated.timestamp > PRESENCE_OFFLINE_THRESHOLD_SECONDS) out.aggregated.status = "offline";
  return out;
}

/**
 * The presence rows `viewer` may see: all of them, or with CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE
 * only those of users a limited guest may access (Zulip's get_presence_dict_by_realm).
 */
export async function presenceRowsFor(deps: Pick<AppDeps, "config" | "store">, viewer: UserRow, rows: PresenceRow[]): Promise<PresenceRow[]> {
  if (!deps.config.canAccessAllUsersGroupLimitsPresence) return rows;
  const access = await loadUserAccess(readTx(deps.store), viewer);
  // Presence rows are humans' (bots have none).
  return access.accessible === null ? rows : rows.filter((r) => access.canAccess({ id: r.user_id, is_bot: false }));
}

export class PresenceService {
  private pending = new Map<number, Pending>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly events: EventBus,
    /** CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE: events only to users who may access the user. */
    private readonly opts: { limitToAccessible?: boolean } = {},
  ) {}

  /** Records a ping; written at the next flush. */
  record(user: UserRow, active: boolean, now: number): void {
    const prev = this.pending.get(user.id);
    this.pending.set(user.id, { user, active: active || (prev?.active ?? false), now });
  }

  /** Writes the coalesced pings in one transaction and publishes presence events for real changes. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.doFlush());
    return this.flushing;
  }

  private async doFlush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    await transaction(this.store, async (tx) => {
      const nextIds = new Map<number, number>();
      for (const p of batch) {
        const old = await getPresenceRow(tx, p.user.id);
        const lastActive = p.active ? p.now : (old?.last_active_time ?? null);
        // Nothing a client could see changed: skip the write (the common steady-state ping).
        const fresh = old && p.now - (old.last_connected_time ?? 0) < PRESENCE_PING_INTERVAL_SECONDS / 2;
        if (fresh && (!p.active || p.now - (old.last_active_time ?? 0) < PRESENCE_PING_INTERVAL_SECONDS / 2)) continue;
        const realmId = p.user.realm_id;
        const nextId = (nextIds.get(realmId) ?? (await getMaxPresenceUpdateId(tx, realmId))) + 1;
        nextIds.set(realmId, nextId);
        const row: PresenceRow = { user_id: p.user.id, realm_id: realmId, last_active_time: lastActive, last_connected_time: p.now, last_update_id: nextId };
        await upsertPresence(tx, row);
        const wasOnline = old && p.now - Math.max(old.last_active_time ?? 0, old.last_connected_time ?? 0) < PRESENCE_OFFLINE_THRESHOLD_SECONDS;
        const becameActive = p.active && (!old || p.now - (old.last_active_time ?? 0) >= PRESENCE_OFFLINE_THRESHOLD_SECONDS);
        const recipients = !wasOnline || becameActive ? await this.audience(tx, p.user) : [];
        if (recipients.length > 0 && recipients.length <= PRESENCE_EVENT_USER_LIMIT) {
          tx.onCommit(() =>
            this.events.publish(
              {
                type: "presence",
                user_id: p.user.id,
                email: p.user.email,
                server_timestamp: p.now,
                presence: { website: { client: "website", status: p.active ? "active" : "idle", timestamp: p.now, pushable: false } },
                presences: { [String(p.user.id)]: presentPresenceModern(row) },
              },
              recipients,
            ),
          );
        }
      }
    });
  }

  private audience(tx: Tx, user: UserRow): Promise<number[]> {
    return this.opts.limitToAccessible ? userIdsWhoCanAccess(tx, user) : getActiveUserIds(tx, user.realm_id);
  }

  /**
   * Presence rows of the realm active within the history limit (14 days, or as many days as the
   * client asked for: register's presence_history_limit_days, FL 288), after flushing pending pings.
   */
  async realmPresence(realmId: number, now: number, historyDays?: number): Promise<PresenceRow[]> {
    await this.flush();
    return getPresenceRows(readTx(this.store), realmId, now - (historyDays === undefined ? PRESENCE_HISTORY_SECONDS : historyDays * 86400));
  }

  async userPresence(userId: number): Promise<PresenceRow | undefined> {
    await this.flush();
    return getPresenceRow(readTx(this.store), userId);
  }
}
