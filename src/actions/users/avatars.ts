/**
 * Where GET /avatar/{user_id} and GET /avatar/{email} (and their /medium variants) send a client
 * (Zulip's `avatar` view in zerver/views/users.py): to the user's avatar URL as their user object
 * gives it, or, for nobody known, to the default avatar (a Gravatar of the given address when
 * Gravatar is on), and for a user the viewer may not access (can_access_all_users_group) to the
 * "Unknown user" image, as Zulip's avatar view does. Clients that were told they may do without avatar_url
 * (user_avatar_url_field_optional) fetch avatars this way. Anonymous visitors may use the id form
 * only, and only where the realm lets spectators in.
 */
import { realmAdmitsSpectators } from "../../access/spectators.js";
import { loadUserAccess, userIdFromSegment } from "../../access/users.js";
import type { AppDeps } from "../../deps.js";
import { unauthorized } from "../../errors.js";
import { INACCESSIBLE_USER_AVATAR_PATH, fullAvatarUrl, gravatarUrl, unknownUserAvatarPath } from "../../lib/avatar-urls.js";
import { readTx } from "../../store/db.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getUserByApiEmail, getUserById } from "../../store/users.js";

export async function getAvatarRedirect(deps: AppDeps, realm: RealmRow, viewer: UserRow | null, key: string, medium: boolean): Promise<string> {
  const id = userIdFromSegment(key);
  const tx = readTx(deps.store);
  // Zulip's allow_web_public_streams_access: the server and the realm allow spectators, and the
  // realm has a web-public channel (access/spectators.ts, as the API's spectator gate asks).
  if (viewer === null && (id === null || !(await realmAdmitsSpectators(tx, deps.config, realm)))) throw unauthorized();
  const user = id !== null ? await getUserById(tx, realm.id, id) : await getUserByApiEmail(tx, realm.id, key);
  if (user && viewer !== null && !(await loadUserAccess(tx, viewer)).canAccess(user)) return INACCESSIBLE_USER_AVATAR_PATH;
  if (user) return fullAvatarUrl(user, deps.config.enableGravatar, medium);
  return deps.config.enableGravatar ? gravatarUrl(key, 1, medium) : `${unknownUserAvatarPath(medium)}?version=1`;
}
