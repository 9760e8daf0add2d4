/**
 * PATCH /streams/{stream_id} (Zulip's update_stream_backend): channel and realm administrators may
 * rename, describe, move between folders and change any setting; privacy changes and the settings
 * granting content access also need content access. Everything is checked before anything is
 * written. Each change sends a `stream` update (property/value) to those who can see the channel;
 * users who gain sight of it get a `stream` create instead, those who lose it a `stream` delete.
 */
import { accessChannelForAdministration } from "../../access/channels.js";
import type { AppDeps } from "../../deps.js";
import { ApiError, insufficientPermission, mustBeOwner } from "../../errors.js";
import type { ChatEvent } from "../../events/bus.js";
import { realmSetting } from "../../lib/realm-settings.js";
import { EMPTY_TOPIC_DISPLAY_NAME } from "../../lib/topics.js";
import {
  CHANNEL_GROUP_SETTINGS,
  DELETE_POLICY_SETTINGS,
  SETTINGS_REQUIRING_CONTENT_ACCESS,
  checkChannelName,
  checkPrivacyCombination,
  normalizeDescription,
  parseRetentionDays,
  settingGroupId,
  type RetentionValue,
  type TopicsPolicy,
} from "../../policy/channel-settings.js";
import { canReadChannel } from "../../policy/channels.js";
import { isOwner, isRealmAdmin } from "../../policy/roles.js";
import { channelHasNamedTopics, getChannelById, getChannelByName, getChannelFolder, getDefaultChannelIds, updateChannel } from "../../store/channels.js";
import type { Tx } from "../../store/db.js";
import { getGroupSettingValues, getSystemGroupByName, type GroupSettingValue } from "../../store/groups.js";
import { insertAuditLog } from "../../store/realms.js";
import type { ChannelRow, ChannelUpdate, RealmRow, UserRow } from "../../store/types.js";
import { ChannelExistsError } from "./create-channel.js";
import { cannotManageDefaultChannels, doSetDefaultChannel, privateDefaultChannel } from "./default-channels.js";
import { resolveGroupSetting } from "../groups/group-settings.js";
import { publishAccessChanges } from "./channel-access-events.js";
import { channelPresenter } from "./channel-views.js";
import { checkUnarchive, sendUnarchiveNotice } from "./archive-channel.js";
import { renderContent } from "../messages/render.js";

export interface GroupSettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

export interface UpdateChannelInput {
  description?: string;
  newName?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  isDefaultStream?: boolean;
  messageRetentionDays?: RetentionValue;
  topicsPolicy?: TopicsPolicy;
  /** null takes the channel out of its folder; undefined leaves it. */
  folderId?: number | null;
  isArchived?: boolean;
  groupSettings: Partial<Record<string, GroupSettingChange>>;
}

const contentAccessRequired = () => new ApiError("Channel content access is required.");

/** A group-setting value in the form the API reports it, for comparisons ({[], [g]} is g; {[], []} is nobody). */
function canonical(value: GroupSettingValue, nobodyId: number): string {
  if (typeof value === "number") return String(value);
  if (value.direct_members.length === 0 && value.direct_subgroups.length <= 1) return String(value.direct_subgroups[0] ?? nobodyId);
  const sorted = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);
  return JSON.stringify([sorted(value.direct_members), sorted(value.direct_subgroups)]);
}

/** Group-setting changes that really change something, after the `old` check (EXPECTATION_MISMATCH). */
async function changedGroupSettings(tx: Tx, realm: RealmRow, channel: ChannelRow, input: UpdateChannelInput) {
  const nobody = (await getSystemGroupByName(tx, realm.id, "role:nobody")).id;
  const current = await getGroupSettingValues(tx, CHANNEL_GROUP_SETTINGS.map((s) => settingGroupId(channel, s)));
  const changes = [];
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const change = input.groupSettings[setting.name];
    if (change === undefined) continue;
    const now = canonical(current.get(settingGroupId(channel, setting)) ?? settingGroupId(channel, setting), nobody);
    if (change.old !== undefined && canonical(change.old, nobody) !== now) {
      throw new ApiError(`'${setting.name}' value does not match the expected value.`, "EXPECTATION_MISMATCH");
    }
    if (canonical(change.new, nobody) !== now) changes.push({ setting, value: change.new, isNobody: canonical(change.new, nobody) === String(nobody) });
  }
  return changes;
}

export async function checkUpdateChannel(deps: AppDeps, tx: Tx, realm: RealmRow, user: UserRow, channelId: number, input: UpdateChannelInput): Promise<void> {
  const { channel, viewer } = await accessChannelForAdministration(tx, user, channelId);
  const m = viewer.membership;
  const contentAccess = canReadChannel(viewer, channel);
  const changes: ChannelUpdate = {};
  const events: Array<Omit<ChatEvent, "type" | "op" | "stream_id" | "name">> = [];

  const inviteOnly = input.isPrivate ?? channel.invite_only;
  const isWebPublic = input.isWebPublic ?? channel.is_web_public;
  const historyPublic = input.historyPublicToSubscribers ?? (input.isPrivate !== undefined ? !input.isPrivate : channel.history_public_to_subscribers);
  const isDefault = input.isDefaultStream ?? (await getDefaultChannelIds(tx, realm.id)).includes(channel.id);
  checkPrivacyCombination(inviteOnly, isWebPublic, historyPublic);
  if (inviteOnly && isDefault) throw privateDefaultChannel();
  // Reports go to the moderators alone (FL 331).
  if (!inviteOnly && realmSetting(realm, "moderation_request_channel_id") === channel.id) throw new ApiError("Moderation request channel must be private.");
  if (input.isPrivate !== undefined) {
    if (!contentAccess) throw contentAccessRequired();
    const group = input.isPrivate ? realm.can_create_private_channel_group_id : realm.can_create_public_channel_group_id;
    if (!m.has(group, { allowEveryone: false })) throw insufficientPermission();
  }
  if (input.isWebPublic) {
    if (!deps.config.webPublicStreamsEnabled || !realm.enable_spectator_access) throw new ApiError("Web-public channels are not enabled.");
    if (!m.has(realm.can_create_web_public_channel_group_id, { allowEveryone: false })) throw insufficientPermission();
  }
  if (input.isPrivate !== undefined || input.isWebPublic !== undefined || input.historyPublicToSubscribers !== undefined) {
    if (inviteOnly !== channel.invite_only || isWebPublic !== channel.is_web_public || historyPublic !== channel.history_public_to_subscribers) {
      Object.assign(changes, { invite_only: inviteOnly, is_web_public: isWebPublic, history_public_to_subscribers: historyPublic });
      events.push({ property: "invite_only", value: inviteOnly, history_public_to_subscribers: historyPublic, is_web_public: isWebPublic });
    }
  }
  if (input.isDefaultStream !== undefined && !isRealmAdmin(user)) throw cannotManageDefaultChannels();
  if (input.messageRetentionDays !== undefined) {
    if (!isOwner(user)) throw mustBeOwner();
    const days = parseRetentionDays(input.messageRetentionDays);
    if (days !== channel.message_retention_days) {
      changes.message_retention_days = days;
      events.push({ property: "message_retention_days", value: days });
    }
  }
  const unarchive = input.isArchived === false ? await checkUnarchive(tx, channel) : false;
  if (input.topicsPolicy !== undefined) {
    if (!m.has(realm.can_set_topics_policy_group_id)) throw insufficientPermission();
    if (input.topicsPolicy === "empty_topic_only" && (await channelHasNamedTopics(tx, channel.recipient_id as number))) {
      throw new ApiError(
        `To enable this configuration, all messages in this channel must be in the "${EMPTY_TOPIC_DISPLAY_NAME}" topic. Consider renaming or deleting other topics.`,
      );
    }
    if (input.topicsPolicy !== channel.topics_policy) {
      changes.topics_policy = input.topicsPolicy;
      events.push({ property: "topics_policy", value: input.topicsPolicy });
    }
  }
  if (input.description !== undefined) {
    const description = normalizeDescription(input.description);
    const rendered = description ? (await renderContent({ tx, realm, config: deps.config, senderId: user.id, content: description })).html : "";
    Object.assign(changes, { description, rendered_description: rendered });
    events.push({ property: "description", value: description, rendered_description: rendered });
  }
  let newName: string | undefined;
  if (input.newName !== undefined) {
    newName = input.newName.trim();
    if (newName === channel.name) throw new ApiError("Channel already has that name.");
    checkChannelName(newName);
    if (newName.toLowerCase() !== channel.name.toLowerCase() && (await getChannelByName(tx, realm.id, newName))) throw new ChannelExistsError(newName);
    changes.name = newName;
  }
  if (input.folderId !== undefined && input.folderId !== channel.folder_id) {
    if (input.folderId !== null) {
      const folder = await getChannelFolder(tx, realm.id, input.folderId);
      if (!folder || folder.is_archived) throw new ApiError("Invalid channel folder ID");
    }
    changes.folder_id = input.folderId;
    events.push({ property: "folder_id", value: input.folderId });
  }
  for (const { setting, value, isNobody } of await changedGroupSettings(tx, realm, channel, input)) {
    if (SETTINGS_REQUIRING_CONTENT_ACCESS.has(setting.name) && !contentAccess) throw contentAccessRequired();
    if (DELETE_POLICY_SETTINGS.has(setting.name) && !isNobody && !m.has(realm.can_set_delete_message_policy_group_id)) throw insufficientPermission();
    const groupId = await resolveGroupSetting(tx, realm, setting.name, value, setting.config, deps.clock.now());
    (changes as Record<string, number>)[setting.column] = groupId;
    events.push({ property: setting.name, value: (await getGroupSettingValues(tx, [groupId])).get(groupId) });
  }
  const everyone = (await getSystemGroupByName(tx, realm.id, "role:everyone")).id;
  const canCreateTopic = (changes.can_create_topic_group_id as number | undefined) ?? channel.can_create_topic_group_id;
  if (inviteOnly && !historyPublic && canCreateTopic !== everyone) {
    throw new ApiError("Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group");
  }

  if (unarchive) changes.deactivated = false;
  if (Object.keys(changes).length > 0) await updateChannel(tx, channel.id, changes);
  if (input.isDefaultStream !== undefined) await doSetDefaultChannel(deps, tx, realm, channel, input.isDefaultStream);
  const updated = (await getChannelById(tx, realm.id, channel.id)) as ChannelRow;
  // Zulip keeps the legacy stream_post_policy and is_announcement_only (derived from
  // can_send_message_group, FL 333) current with their own updates.
  const presenter = await channelPresenter(tx, realm.id, [channel, updated], deps.clock.now());
  const [was, now] = [presenter.channel(channel), presenter.channel(updated)];
  for (const legacy of ["stream_post_policy", "is_announcement_only"]) if (was[legacy] !== now[legacy]) events.push({ property: legacy, value: now[legacy] });
  await insertAuditLog(tx, {
    realm_id: realm.id,
    event_type: "channel_property_changed",
    event_time: deps.clock.now(),
    acting_user_id: user.id,
    modified_channel_id: channel.id,
    extra_data: { changes: Object.keys(changes) },
  });
  // The rename goes first and names the channel by its old name, as Zulip's does; later events use the new one.
  const ordered = newName === undefined ? events : [{ property: "name", value: newName, name: channel.name }, ...events];
  await publishAccessChanges(deps, tx, realm, channel, updated, ordered, { unarchived: unarchive });
  if (unarchive) await sendUnarchiveNotice(deps, tx, realm, user, updated);
}
