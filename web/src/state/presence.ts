/**
 * Who is online (zulip-openapi.yaml: register's `presences` with slim_presence, `presence` events
 * with the simplified_presence_events capability, and POST /users/me/presence's answer): per user
 * the last time they were active and the last time any client of theirs was connected. The status
 * is derived from those times as Zulip's web app does (web/src/presence.ts there): active when the
 * active time is within the offline threshold, idle when only the connected time is, else offline.
 */

/** The modern presence shape: UNIX seconds, 0 when never. */
export interface RawPresence {
  active_timestamp: number;
  idle_timestamp: number;
}

export type PresenceStatus = "active" | "idle" | "offline";

export interface PresenceState {
  byUser: ReadonlyMap<number, RawPresence>;
  /** The server's clock minus ours, in seconds, so statuses do not depend on the local clock. */
  clockOffsetSec: number;
  offlineThresholdSec: number;
  pingIntervalSec: number;
  /** The newest presence_last_update_id seen, for incremental POST /users/me/presence answers. */
  lastUpdateId: number;
}

const nowSec = (nowMs: number) => nowMs / 1000;

export function presenceFromRegister(register: Record<string, unknown>, nowMs: number): PresenceState {
  const presences = (register.presences ?? {}) as Record<string, RawPresence>;
  const serverTimestamp = typeof register.server_timestamp === "number" ? register.server_timestamp : nowSec(nowMs);
  return {
    byUser: new Map(Object.entries(presences).map(([id, raw]) => [Number(id), raw])),
    clockOffsetSec: serverTimestamp - nowSec(nowMs),
    offlineThresholdSec: (register.server_presence_offline_threshold_seconds as number | undefined) ?? 140,
    pingIntervalSec: (register.server_presence_ping_interval_seconds as number | undefined) ?? 60,
    lastUpdateId: (register.presence_last_update_id as number | undefined) ?? -1,
  };
}

/** Merges presences keyed by user id (an event, or POST /users/me/presence's answer). */
export function mergePresences(state: PresenceState, presences: Record<string, RawPresence> | undefined, lastUpdateId?: number): PresenceState {
  const entries = Object.entries(presences ?? {});
  if (entries.length === 0 && lastUpdateId === undefined) return state;
  const byUser = new Map(state.byUser);
  for (const [id, raw] of entries) {
    const old = byUser.get(Number(id));
    // Times only move forward: an older answer arriving late must not undo a newer event.
    byUser.set(Number(id), {
      active_timestamp: Math.max(raw.active_timestamp ?? 0, old?.active_timestamp ?? 0),
      idle_timestamp: Math.max(raw.idle_timestamp ?? 0, old?.idle_timestamp ?? 0),
    });
  }
  return { ...state, byUser, lastUpdateId: Math.max(state.lastUpdateId, lastUpdateId ?? -1) };
}

export function presenceStatus(state: PresenceState, userId: number, nowMs: number): PresenceStatus {
  const raw = state.byUser.get(userId);
  if (!raw) return "offline";
  const now = nowSec(nowMs) + state.clockOffsetSec;
  if (raw.active_timestamp > 0 && now - raw.active_timestamp < state.offlineThresholdSec) return "active";
  if (raw.idle_timestamp > 0 && now - raw.idle_timestamp < state.offlineThresholdSec) return "idle";
  return "offline";
}
