/** Setup shortcuts for message edit, move, delete and flag tests: organization settings and system groups. */
import { readTx, transaction } from "../../src/store/db.js";
import { getSystemGroupByName } from "../../src/store/groups.js";
import { updateRealm } from "../../src/store/realms.js";
import type { RealmUpdate } from "../../src/store/types.js";
import type { TestRealm } from "./fixtures.js";

export type SystemGroup = "role:nobody" | "role:owners" | "role:administrators" | "role:moderators" | "role:members" | "role:everyone";

export async function groupId(t: TestRealm, name: SystemGroup): Promise<number> {
  return (await getSystemGroupByName(readTx(t.deps.store), t.realmId, name)).id;
}

/** Changes organization settings straight in the store (no realm-settings endpoint is involved). */
export async function setRealm(t: TestRealm, changes: RealmUpdate): Promise<void> {
  await transaction(t.deps.store, (tx) => updateRealm(tx, t.realmId, changes));
}

/** Points an organization group setting (e.g. "can_resolve_topics_group_id") at a system group. */
export async function setRealmGroup(t: TestRealm, column: keyof RealmUpdate & `${string}_id`, group: SystemGroup): Promise<void> {
  await setRealm(t, { [column]: await groupId(t, group) });
}

/** Events of one type published since `from` (an index into t.published). */
export function eventsOfType(t: TestRealm, type: string, from = 0) {
  return t.published.slice(from).filter((e) => e.event.type === type);
}

export interface Notice {
  id: number;
  streamId: number;
  topic: string;
  content: string;
}

/** Notification Bot messages published since `from`, oldest first. */
export function noticesSince(t: TestRealm, from: number): Notice[] {
  const seen = new Map<number, Notice>();
  for (const { event } of eventsOfType(t, "message", from)) {
    const m = event.message as { id: number; stream_id: number; subject: string; sender_full_name: string };
    if (m.sender_full_name === "Notification Bot") seen.set(m.id, { id: m.id, streamId: m.stream_id, topic: m.subject, content: event.raw_content as string });
  }
  return [...seen.values()];
}

/** Zulip's defaults for who may move messages and resolve topics, with no time limits. */
export async function resetMoveSettings(t: TestRealm): Promise<void> {
  await setRealm(t, { move_messages_within_stream_limit_seconds: null, move_messages_between_streams_limit_seconds: null });
  await setRealmGroup(t, "can_move_messages_between_topics_group_id", "role:everyone");
  await setRealmGroup(t, "can_move_messages_between_channels_group_id", "role:members");
  await setRealmGroup(t, "can_resolve_topics_group_id", "role:everyone");
}
