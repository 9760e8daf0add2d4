/**
 * User-group rules (spec 4.13, zulip-facts section g): name rules and the group's own permission
 * settings with Zulip's configs and defaults ("creator" = an anonymous group holding the group's
 * creator).
 */
import { ApiError } from "../errors.js";
import type { GroupSettingConfig } from "./group-settings.js";

export const MAX_GROUP_NAME_LENGTH = 100;
const INVALID_NAME_PREFIXES = ["@", "role:", "user:", "stream:", "channel:"];

export interface UserGroupSetting {
  name: string;
  column:
    | "can_add_members_group_id"
    | "can_join_group_id"
    | "can_leave_group_id"
    | "can_manage_group_id"
    | "can_mention_group_id"
    | "can_remove_members_group_id";
  config: GroupSettingConfig;
  default: "creator" | "role:nobody" | "role:everyone";
}

const restricted: GroupSettingConfig = { allowInternet: false, allowNobody: true, allowEveryone: false };
const open: GroupSettingConfig = { allowInternet: false, allowNobody: true, allowEveryone: true };

export const USER_GROUP_SETTINGS: readonly UserGroupSetting[] = [
  { name: "can_add_members_group", column: "can_add_members_group_id", config: restricted, default: "creator" },
  { name: "can_join_group", column: "can_join_group_id", config: restricted, default: "role:nobody" },
  { name: "can_leave_group", column: "can_leave_group_id", config: open, default: "role:everyone" },
  { name: "can_manage_group", column: "can_manage_group_id", config: restricted, default: "creator" },
  { name: "can_mention_group", column: "can_mention_group_id", config: { ...open, allowOwners: false }, default: "role:everyone" },
  { name: "can_remove_members_group", column: "can_remove_members_group_id", config: restricted, default: "role:nobody" },
];

export type UserGroupPermission = UserGroupSetting["name"];

export function groupSetting(name: string): UserGroupSetting {
  return USER_GROUP_SETTINGS.find((s) => s.name === name) as UserGroupSetting;
}

/** Zulip's check_user_group_name. */
export function checkUserGroupName(name: string): string {
  if (name.trim() === "") throw new ApiError("User group name can't be empty!");
  if ([...name].length > MAX_GROUP_NAME_LENGTH) {
    throw new ApiError(`User group name cannot exceed ${MAX_GROUP_NAME_LENGTH} characters.`);
  }
  const prefix = INVALID_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix !== undefined) throw new ApiError(`User group name cannot start with '${prefix}'.`);
  return name;
}
