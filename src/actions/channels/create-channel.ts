/**
 * Creating channels (spec 4.3), for POST /channels/create and for the channels POST
 * /users/me/subscriptions creates on the fly: permission to create this kind of channel, name and
 * description bounds, folder, topics policy, history and retention rules, every can_*_group
 * setting, initial subscribers, default-channel status and the optional announcement.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError, insufficientPermission, invalidUser, mustBeOwner } from "../../errors.js";
import { newChannelAnnouncementsChannelId } from "../../lib/realm-settings.js";
import {
  CHANNEL_GROUP_SETTINGS,
  DELETE_POLICY_SETTINGS,
  checkChannelName,
  checkDescriptionLength,
  normalizeDescription,
  parseRetentionDays,
  type RetentionValue,
  type TopicsPolicy,
} from "../../policy/channel-settings.js";
import { hasAddSubscribersPermission } from "../../policy/channels.js";
import { Membership } from "../../policy/group-settings.js";
import { isGuest, isOwner, isRealmAdmin } from "../../policy/roles.js";
import { getChannelById, getChannelByName, getChannelFolder, insertChannel } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { addGroupMembers, getSystemGroupByName, insertGroup, type GroupSettingValue } from "../../store/groups.js";
import { insertAuditLog } from "../../store/realms.js";
import type { ChannelRow, RealmRow, UserRow } from "../../store/types.js";
import { getUsersByIds } from "../../store/users.js";
import { doSetDefaultChannel, privateDefaultChannel } from "./default-channels.js";
import { resolveGroupSetting } from "../groups/group-settings.js";
import { sendChannelNotice, silentMention } from "../bots/notification-bot.js";
import { renderContent } from "../messages/render.js";
import { doAddSubscriptions } from "./subscriptions-add.js";

/** Settings of channels to create; shared by both creating endpoints. */
export interface NewChannelSettings {
  inviteOnly: boolean;
  isWebPublic: boolean;
  isDefaultStream: boolean;
  folderId?: number;
  topicsPolicy?: TopicsPolicy;
  historyPublicToSubscribers?: boolean;
  messageRetentionDays?: RetentionValue;
  groupSettings: Partial<Record<string, GroupSettingValue>>;
}

export interface CreateChannelInput extends NewChannelSettings {
  name: string;
  description?: string;
  subscriberIds: number[];
  announce: boolean;
}

/** What the checks settle: values derived from the request, ready to store. */
export interface CheckedChannelSettings {
  historyPublic: boolean;
  retentionDays: number | null;
}

export class ChannelExistsError extends ApiError {
  constructor(name: string) {
    super(`Channel '${name}' already exists`, "CHANNEL_ALREADY_EXISTS", 409);
  }
}

export const notAllowedForGuests = () => new ApiError("Not allowed for guest users");

const nonGuests = { allowEveryone: false };

/**
 * The rules that do not depend on the name, in Zulip's order (check_channel_creation_permissions),
 * then folder and topics policy. Public and web-public channels always share history with
 * subscribers (Zulip sets it rather than refusing); private ones hide it unless asked.
 */
export async function checkNewChannelSettings(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  m: Membership,
  s: NewChannelSettings,
): Promise<CheckedChannelSettings> {
  const createGroup = s.inviteOnly ? realm.can_create_private_channel_group_id : realm.can_create_public_channel_group_id;
  if (!m.has(createGroup, nonGuests)) throw insufficientPermission();
  if (s.isDefaultStream && !isRealmAdmin(m.user)) throw insufficientPermission();
  if (s.inviteOnly && s.isDefaultStream) throw privateDefaultChannel();
  if (s.isWebPublic) {
    if (s.inviteOnly) throw new ApiError("Invalid parameters");
    if (!deps.config.webPublicStreamsEnabled || !realm.enable_spectator_access) throw new ApiError("Web-public channels are not enabled.");
    if (!m.has(realm.can_create_web_public_channel_group_id, nonGuests)) throw insufficientPermission();
  }
  const retentionDays = s.messageRetentionDays === undefined ? null : parseRetentionDays(s.messageRetentionDays);
  if (retentionDays !== null && !isOwner(m.user)) throw mustBeOwner();
  if (s.topicsPolicy !== undefined && s.topicsPolicy !== "inherit" && !m.has(realm.can_set_topics_policy_group_id)) {
    throw insufficientPermission();
  }
  if (s.folderId !== undefined) {
    const folder = await getChannelFolder(tx, realm.id, s.folderId);
    if (!folder || folder.is_archived) throw new ApiError("Invalid channel folder ID");
  }
  return { historyPublic: s.inviteOnly ? (s.historyPublicToSubscribers ?? false) : true, retentionDays };
}

/** Each setting's group: the request's value (validated against its config) or the default. */
async function groupSettingColumns(
  tx: Tx,
  realm: RealmRow,
  m: Membership,
  s: NewChannelSettings,
  historyPublic: boolean,
  now: number,
): Promise<Record<string, number>> {
  const columns: Record<string, number> = {};
  const nobody = (await getSystemGroupByName(tx, realm.id, "role:nobody")).id;
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const given = s.groupSettings[setting.name];
    if (given !== undefined) {
      columns[setting.column] = await resolveGroupSetting(tx, realm, setting.name, given, setting.config, now);
      if (DELETE_POLICY_SETTINGS.has(setting.name) && columns[setting.column] !== nobody && !m.has(realm.can_set_delete_message_policy_group_id)) {
        throw insufficientPermission();
      }
    } else if (setting.default === "creator") {
      const id = await insertGroup(tx, { realm_id: realm.id, name: null, date_created: now, creator_id: null });
      await addGroupMembers(tx, id, [m.user.id]);
      columns[setting.column] = id;
    } else {
      columns[setting.column] = (await getSystemGroupByName(tx, realm.id, setting.default)).id;
    }
  }
  // With protected history, someone unable to start a topic could never take part: everyone must be able to.
  const everyone = (await getSystemGroupByName(tx, realm.id, "role:everyone")).id;
  if (s.inviteOnly && !historyPublic && columns.can_create_topic_group_id !== everyone) {
    throw new ApiError("Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group");
  }
  return columns;
}

/** Writes one channel whose settings passed checkNewChannelSettings. Its events go out with its subscriptions. */
export async function doCreateChannel(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  m: Membership,
  input: { name: string; description: string } & NewChannelSettings,
  checked: CheckedChannelSettings,
): Promise<ChannelRow> {
  const now = deps.clock.now();
  const creator = m.user;
  const columns = await groupSettingColumns(tx, realm, m, input, checked.historyPublic, now);
  const rendered = input.description
    ? (await renderContent({ tx, realm, config: deps.config, senderId: creator.id, content: input.description })).html
    : "";
  const channel = await insertChannel(tx, {
    realm_id: realm.id,
    name: input.name,
    description: input.description,
    rendered_description: rendered,
    date_created: now,
    creator_id: creator.id,
    invite_only: input.inviteOnly,
    is_web_public: input.isWebPublic,
    history_public_to_subscribers: checked.historyPublic,
    message_retention_days: checked.retentionDays,
    folder_id: input.folderId ?? null,
    topics_policy: input.topicsPolicy ?? "inherit",
    ...columns,
  });
  if (input.isDefaultStream) await doSetDefaultChannel(deps, tx, realm, channel, true);
  await insertAuditLog(tx, { realm_id: realm.id, event_type: "channel_created", event_time: now, acting_user_id: creator.id, modified_channel_id: channel.id });
  return channel;
}

/** A trimmed, valid name that no channel (archived ones included) has yet. */
export async function checkNewChannelName(tx: Tx, realm: RealmRow, raw: string): Promise<string> {
  const name = raw.trim();
  checkChannelName(name);
  if (await getChannelByName(tx, realm.id, name)) throw new ChannelExistsError(name);
  return name;
}

/** Active users of the realm by id; any other id is "No such user". */
export async function activeUsersByIds(tx: Tx, realm: RealmRow, ids: readonly number[]): Promise<UserRow[]> {
  const unique = [...new Set(ids)];
  const users = await getUsersByIds(tx, realm.id, unique);
  if (users.length !== unique.length || users.some((u) => !u.is_active)) throw invalidUser();
  return users;
}

/** POST /channels/create. */
export async function checkCreateChannel(deps: AppDeps, tx: Tx, realm: RealmRow, creator: UserRow, input: CreateChannelInput): Promise<ChannelRow> {
  if (isGuest(creator)) throw notAllowedForGuests();
  const name = await checkNewChannelName(tx, realm, input.name);
  const description = normalizeDescription(input.description ?? "");
  checkDescriptionLength(description);
  const membership = await Membership.load(tx, creator);
  const checked = await checkNewChannelSettings(deps, tx, realm, membership, input);
  const subscribers = await activeUsersByIds(tx, realm, input.subscriberIds);
  const channel = await doCreateChannel(deps, tx, realm, membership, { ...input, name, description }, checked);
  if (subscribers.some((u) => u.id !== creator.id)) {
    // Reloaded: the creator may now belong to the channel's new anonymous groups.
    const viewer = { membership: await Membership.load(tx, creator), subscribed: false };
    if (!hasAddSubscribersPermission(viewer, channel, realm.can_add_subscribers_group_id)) throw insufficientPermission();
  }
  await doAddSubscriptions(deps, tx, realm, creator, [channel], subscribers, { createdChannelIds: new Set([channel.id]) });
  if (input.announce) await announceNewChannels(deps, tx, realm, creator, [channel]);
  return channel;
}

/**
 * Notification Bot's announcement in the realm's new-channel announcements channel (if one is
 * set): one message naming every channel the request created, in topic "new channels".
 */
export async function announceNewChannels(deps: AppDeps, tx: Tx, realm: RealmRow, creator: UserRow, channels: readonly ChannelRow[]): Promise<void> {
  const targetId = newChannelAnnouncementsChannelId(realm);
  if (channels.length === 0 || targetId === null) return;
  const target = await getChannelById(tx, realm.id, targetId);
  if (!target) return;
  const links = channels.map((c) => `#**${c.name}**`);
  const content =
    channels.length === 1
      ? `${silentMention(creator)} created a new channel ${links[0]}.`
      : `${silentMention(creator)} created the following channels: ${links.join(", ")}.`;
  await sendChannelNotice(deps, tx, realm, target, "new channels", content, { actingUser: creator });
}
