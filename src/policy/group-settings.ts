/**
 * Group-setting evaluation, in one place (zulip-facts section g): a user "has" a setting when they
 * belong, at any depth, to the group the setting points at; deactivated users never do; guests
 * never do for settings that do not allow role:everyone.
 */
import type { Tx } from "../store/db.js";
import { getRecursiveGroupIds } from "../store/groups.js";
import type { UserRow } from "../store/types.js";
import { isGuest } from "./roles.js";

/** How one setting may be set (Zulip's GroupPermissionSetting config). */
export interface GroupSettingConfig {
  allowInternet: boolean;
  allowNobody: boolean;
  allowEveryone: boolean;
  requireSystem?: boolean;
  /** False where role:owners is refused (spec 4.13: can_mention_group). */
  allowOwners?: boolean;
}

/** The groups a user belongs to, loaded once per operation and asked many times. */
export class Membership {
  private constructor(
    readonly user: UserRow,
    private readonly groupIds: Set<number>,
  ) {}

  static async load(tx: Tx, user: UserRow): Promise<Membership> {
    return new Membership(user, user.is_active ? await getRecursiveGroupIds(tx, user.id) : new Set());
  }

  /**
   * Whether the user passes a group setting. `allowEveryone` is the setting's
   * allow_everyone_group config: when false, guests fail even as members.
   */
  has(groupId: number | null, opts: { allowEveryone?: boolean } = {}): boolean {
    if (groupId === null || !this.user.is_active) return false;
    if (opts.allowEveryone === false && isGuest(this.user)) return false;
    return this.groupIds.has(groupId);
  }

  isMemberOf(groupId: number): boolean {
    return this.groupIds.has(groupId);
  }
}
