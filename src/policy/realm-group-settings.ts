/**
 * The realm-level group settings (zulip-facts section g; Zulip's
 * Realm.REALM_PERMISSION_GROUP_SETTINGS): how each may be set through PATCH /realm, and which only
 * owners may change (they decide who may join, invite or manage every group).
 */
import type { GroupSettingConfig } from "./group-settings.js";

export interface RealmGroupSetting {
  name: string;
  /** The realms column holding the group id. */
  column: string;
  config: GroupSettingConfig;
  ownerOnly: boolean;
  /** System groups the setting may name, when restricted. */
  allowedSystemGroups?: readonly string[];
}

const restricted: GroupSettingConfig = { allowInternet: false, allowNobody: true, allowEveryone: false };
const open: GroupSettingConfig = { allowInternet: false, allowNobody: true, allowEveryone: true };
const someone: GroupSettingConfig = { allowInternet: false, allowNobody: false, allowEveryone: false };

type Entry = Omit<RealmGroupSetting, "column" | "ownerOnly"> & { ownerOnly?: boolean };

const ENTRIES: readonly Entry[] = [
  { name: "create_multiuse_invite_group", config: restricted, ownerOnly: true },
  {
    name: "can_access_all_users_group",
    config: { allowInternet: false, allowNobody: false, allowEveryone: true, requireSystem: true },
    allowedSystemGroups: ["role:everyone", "role:members"],
  },
  { name: "can_add_custom_emoji_group", config: restricted },
  { name: "can_add_subscribers_group", config: restricted },
  { name: "can_create_bots_group", config: restricted },
  { name: "can_create_groups", config: restricted, ownerOnly: true },
  { name: "can_create_private_channel_group", config: restricted },
  { name: "can_create_public_channel_group", config: restricted },
  {
    name: "can_create_web_public_channel_group",
    config: { ...restricted, requireSystem: true },
    allowedSystemGroups: ["role:moderators", "role:administrators", "role:owners", "role:nobody"],
  },
  { name: "can_create_write_only_bots_group", config: restricted },
  { name: "can_delete_any_message_group", config: restricted },
  { name: "can_delete_own_message_group", config: open },
  { name: "can_invite_users_group", config: restricted, ownerOnly: true },
  { name: "can_manage_all_groups", config: someone, ownerOnly: true },
  { name: "can_manage_billing_group", config: someone, ownerOnly: true },
  { name: "can_mention_many_users_group", config: open },
  { name: "can_move_messages_between_channels_group", config: restricted },
  { name: "can_move_messages_between_topics_group", config: open },
  { name: "can_resolve_topics_group", config: open },
  { name: "can_set_delete_message_policy_group", config: restricted },
  { name: "can_set_topics_policy_group", config: open },
  { name: "can_summarize_topics_group", config: open },
  { name: "direct_message_initiator_group", config: open },
  { name: "direct_message_permission_group", config: open },
];

export const REALM_GROUP_SETTINGS: readonly RealmGroupSetting[] = ENTRIES.map((e) => ({ ...e, column: `${e.name}_id`, ownerOnly: e.ownerOnly ?? false }));

/** Zulip's defaults for the realm-level permission settings. */
export const REALM_GROUP_SETTING_DEFAULTS: Readonly<Record<string, string>> = {
  can_access_all_users_group_id: "role:everyone",
  can_add_custom_emoji_group_id: "role:members",
  can_add_subscribers_group_id: "role:members",
  can_create_bots_group_id: "role:members",
  can_create_groups_id: "role:members",
  can_create_private_channel_group_id: "role:members",
  can_create_public_channel_group_id: "role:members",
  can_create_web_public_channel_group_id: "role:owners",
  can_create_write_only_bots_group_id: "role:members",
  can_delete_any_message_group_id: "role:administrators",
  can_delete_own_message_group_id: "role:everyone",
  can_invite_users_group_id: "role:members",
  can_manage_all_groups_id: "role:owners",
  can_manage_billing_group_id: "role:administrators",
  can_mention_many_users_group_id: "role:administrators",
  can_move_messages_between_channels_group_id: "role:members",
  can_move_messages_between_topics_group_id: "role:everyone",
  can_resolve_topics_group_id: "role:everyone",
  can_set_delete_message_policy_group_id: "role:moderators",
  can_set_topics_policy_group_id: "role:moderators",
  can_summarize_topics_group_id: "role:everyone",
  create_multiuse_invite_group_id: "role:administrators",
  direct_message_initiator_group_id: "role:everyone",
  direct_message_permission_group_id: "role:everyone",
};
