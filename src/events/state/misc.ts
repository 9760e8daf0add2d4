/** Smaller register sections: each reads one table of the user's or realm's data. */
import { emojiStillFileName } from "../../lib/image-types.js";
import type { UserAccess } from "../../access/users.js";
import { displayTopic } from "../../lib/topics.js";
import type { Tx } from "../../store/db.js";
import { getLinkifiers } from "../../store/render-refs.js";
import {
  getAlertWords,
  getChannelFolders,
  getDrafts,
  getRealmEmoji,
  getRealmUserStatuses,
  getUserTopics,
} from "../../store/state.js";
import { getMutedUsers } from "../../store/muted-users.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { listUsersToPresent } from "../../store/users.js";
import { presentStatus } from "../../actions/users/user-status.js";
import { listProfileFieldsForApi } from "../../actions/users/profile-fields.js";

/** Zulip's custom profile field types, as register reports them. */
export const CUSTOM_PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: "Text (short)" },
  LONG_TEXT: { id: 2, name: "Text (long)" },
  SELECT: { id: 3, name: "List of options" },
  DATE: { id: 4, name: "Date picker" },
  URL: { id: 5, name: "Link" },
  USER: { id: 6, name: "Person picker" },
  EXTERNAL_ACCOUNT: { id: 7, name: "External account" },
  PRONOUNS: { id: 8, name: "Pronouns" },
};

export async function linkifiersState(tx: Tx, realm: RealmRow) {
  const rows = await getLinkifiers(tx, realm.id);
  return {
    realm_linkifiers: rows.map((l) => ({
      id: l.id,
      pattern: l.pattern,
      url_template: l.url_template,
      example_input: l.example_input,
      reverse_template: l.reverse_template,
      alternative_url_templates: JSON.parse(l.alternative_url_templates) as string[],
    })),
  };
}

/** One custom emoji as realm_emoji lists it (and the realm_emoji add event carries it). */
export function presentRealmEmoji(e: { id: number; realm_id: number; name: string; file_name: string; deactivated: boolean; author_id: number | null; is_animated: boolean }) {
  return {
    id: String(e.id),
    name: e.name,
    source_url: `/user_avatars/${e.realm_id}/emoji/images/${e.file_name}`,
    deactivated: e.deactivated,
    author_id: e.author_id,
    // FL 97: an animated emoji's first frame, for clients that show stills.
    still_url: e.is_animated ? `/user_avatars/${e.realm_id}/emoji/images/still/${emojiStillFileName(e.file_name)}` : null,
  };
}

export async function realmEmojiState(tx: Tx, realm: RealmRow) {
  const rows = await getRealmEmoji(tx, realm.id);
  return { realm_emoji: Object.fromEntries(rows.map((e) => [String(e.id), presentRealmEmoji(e)])) };
}

/** The fields as GET /realm/profile_fields and the custom_profile_fields event present them. */
export async function customProfileFieldsState(tx: Tx, realm: RealmRow) {
  return { custom_profile_fields: await listProfileFieldsForApi(tx, realm.id), custom_profile_field_types: CUSTOM_PROFILE_FIELD_TYPES };
}

export async function channelFoldersState(tx: Tx, realm: RealmRow) {
  const rows = await getChannelFolders(tx, realm.id);
  return {
    channel_folders: rows.map((f) => ({
      id: f.id,
      name: f.name,
      description: f.description,
      rendered_description: f.rendered_description,
      order: f.order,
      date_created: f.date_created,
      creator_id: f.creator_id,
      is_archived: f.is_archived,
    })),
  };
}

export async function userTopicsState(tx: Tx, user: UserRow, opts: { allowEmptyTopicName: boolean }) {
  const rows = await getUserTopics(tx, user.id);
  return {
    user_topics: rows.map((r) => ({
      stream_id: r.channel_id,
      topic_name: displayTopic(r.topic_name, opts.allowEmptyTopicName),
      visibility_policy: r.visibility_policy,
      last_updated: r.last_updated,
    })),
  };
}

const PRESENCE_SETTING = JSON.stringify("presence_enabled");

/**
 * Every active user's status, `away` included (the inverse of presence_enabled), as GET
 * /users/{id}/status presents it; for a guest limited by can_access_all_users_group, only the
 * users they may access (Zulip's get_all_users_status_dict, FL 228).
 */
export async function userStatusState(tx: Tx, realm: RealmRow, access: UserAccess) {
  const [rows, users] = await Promise.all([getRealmUserStatuses(tx, realm.id), listUsersToPresent(tx, realm.id)]);
  const byUser = new Map(rows.map((r) => [r.user_id, r]));
  const out: Record<string, Record<string, unknown>> = {};
  for (const user of users) {
    // Only users with a status row or a stored presence_enabled can have anything to show:
    // settings hold just what a user changed. The text test lets extra users through, never
    // misses one; presentStatus reads the setting itself.
    if (!user.is_active || (!byUser.has(user.id) && !user.settings.includes(PRESENCE_SETTING)) || !access.canAccess(user)) continue;
    const status = presentStatus(byUser.get(user.id), user);
    if (Object.keys(status).length > 0) out[String(user.id)] = status;
  }
  return { user_status: out };
}

export async function personalListsState(tx: Tx, user: UserRow, type: "alert_words" | "muted_users" | "drafts") {
  if (type === "alert_words") return { alert_words: await getAlertWords(tx, user.id) };
  if (type === "muted_users") return { muted_users: await getMutedUsers(tx, user.id) };
  const drafts = await getDrafts(tx, user.id);
  return {
    drafts: drafts.map((d) => ({ id: d.id, type: d.type, to: JSON.parse(d.to) as number[], topic: d.topic, content: d.content, timestamp: d.timestamp })),
  };
}
