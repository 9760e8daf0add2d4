/**
 * The `actions` of DELETE /users/{user_id} (FL 459; API doc deactivate-user, Zulip's
 * DeactivateUserActions in zerver/actions/message_delete.py): while deactivating, also delete the
 * user's profile (name "Deleted user", avatar back to the default) and/or the messages they sent in
 * public channels, private channels or direct messages. As with the deactivation itself, they apply
 * first to the user's bots that are deactivated with them, then to the user. Message deletion is
 * queued and done in batches off the request (actions/messages/user-message-deletion.ts).
 */
import type { AppDeps } from "../../deps.js";
import { fullAvatarUrl } from "../../lib/avatar-urls.js";
import { realmJsonSetting } from "../../lib/realm-settings.js";
import * as v from "../../lib/validate.js";
import type { Tx } from "../../store/db.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { updateUser } from "../../store/users.js";
import { doChangeFullName } from "./user-admin.js";
import { publishUserUpdate } from "./user-events.js";
import { queueUserMessageDeletion } from "../messages/user-message-deletion.js";

export interface DeactivationActions {
  deleteProfile: boolean;
  deletePublicChannelMessages: boolean;
  deletePrivateChannelMessages: boolean;
  deleteDirectMessages: boolean;
}

/** Zulip's name for a user whose profile was deleted (API doc deactivate-user, `delete_profile`). */
export const DELETED_USER_NAME = "Deleted user";

const KEYS = ["delete_profile", "delete_public_channel_messages", "delete_private_channel_messages", "delete_direct_messages"] as const;

const actionsShape = v.object({
  delete_profile: v.optionalField(v.bool),
  delete_public_channel_messages: v.optionalField(v.bool),
  delete_private_channel_messages: v.optionalField(v.bool),
  delete_direct_messages: v.optionalField(v.bool),
});

/** The `actions` parameter: a JSON object of booleans, each false when left out (a pydantic model: unknown keys are ignored). */
export function checkDeactivationActionsParam(value: unknown, name: string): DeactivationActions {
  const known = typeof value === "object" && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter(([key]) => (KEYS as readonly string[]).includes(key)))
    : value;
  const parsed = actionsShape(known, name);
  return {
    deleteProfile: parsed.delete_profile ?? false,
    deletePublicChannelMessages: parsed.delete_public_channel_messages ?? false,
    deletePrivateChannelMessages: parsed.delete_private_channel_messages ?? false,
    deleteDirectMessages: parsed.delete_direct_messages ?? false,
  };
}

/** The name goes to "Deleted user"; an uploaded avatar goes back to the realm's default one. */
async function doDeleteProfile(deps: AppDeps, tx: Tx, realm: RealmRow, user: UserRow): Promise<void> {
  if (user.full_name !== DELETED_USER_NAME) await doChangeFullName(deps, tx, user, DELETED_USER_NAME);
  if (user.avatar_source !== "U") return;
  const after = { ...user, avatar_source: realmJsonSetting(realm, "default_avatar_source"), avatar_version: user.avatar_version + 1 };
  await updateUser(tx, user.id, { avatar_source: after.avatar_source, avatar_version: after.avatar_version });
  const gravatar = deps.config.enableGravatar;
  await publishUserUpdate(deps, tx, realm.id, {
    user_id: user.id,
    avatar_source: after.avatar_source,
    avatar_url: fullAvatarUrl(after, gravatar),
    avatar_url_medium: fullAvatarUrl(after, gravatar, true),
    avatar_version: after.avatar_version,
  });
}

/** Applies the actions to each account (bots first, then their owner), inside the deactivation's transaction. */
export async function doDeactivationActions(
  deps: AppDeps,
  tx: Tx,
  realm: RealmRow,
  actor: UserRow,
  accounts: readonly UserRow[],
  actions: DeactivationActions,
): Promise<void> {
  const scope = {
    publicChannels: actions.deletePublicChannelMessages,
    privateChannels: actions.deletePrivateChannelMessages,
    direct: actions.deleteDirectMessages,
  };
  for (const account of accounts) {
    if (actions.deleteProfile) await doDeleteProfile(deps, tx, realm, account);
    await queueUserMessageDeletion(deps, tx, actor, account, scope);
  }
}
