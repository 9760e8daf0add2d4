/**
 * Avatar and realm icon URLs, the way Zulip writes them (zerver/lib/avatar.py, realm_icon.py).
 *
 * An uploaded avatar (avatar_source "U") is a file under /user_avatars/. Otherwise Zulip points at
 * Gravatar when the server enables it (ENABLE_GRAVATAR) and at a default image when it does not.
 * Parley enables Gravatar only when configured to (env ENABLE_GRAVATAR; the server may have no
 * internet access): by default it serves its own generated images (http/avatar-routes.ts). Every
 * non-Gravatar URL is relative, as Zulip's are; clients resolve it against the realm URL. The
 * "medium" (500 px) variant of a file avatar is the same path ending in `-medium.png`, which is
 * how the mobile app derives it (its avatar_url.dart).
 */
import { createHash } from "node:crypto";

/** How a viewer gets avatar URLs. */
export interface AvatarView {
  /** Zulip's ENABLE_GRAVATAR (Parley's config.enableGravatar). */
  gravatar: boolean;
  /** register / GET /users' client_gravatar: the client computes Gravatar URLs itself. */
  clientGravatar: boolean;
  /** Whether the viewer may see the user's real email (a Gravatar hash is made from it). */
  viewerSeesEmail: boolean;
}

/** Zulip's DEFAULT_AVATAR_SIZE and MEDIUM_AVATAR_SIZE, in pixels. */
export const AVATAR_SIZE = 100;
export const MEDIUM_AVATAR_SIZE = 500;

/** The fields of a user (a users row, or any object with them) its avatar URL is made from. */
export interface AvatarUser {
  id: number;
  realm_id: number;
  avatar_source: string;
  avatar_version: number;
  delivery_email: string;
}

function md5(text: string): string {
  return createHash("md5").update(text).digest("hex");
}

export function gravatarUrl(email: string, version: number, medium = false): string {
  return `https://secure.gravatar.com/avatar/${md5(email.trim().toLowerCase())}?d=identicon${medium ? `&s=${MEDIUM_AVATAR_SIZE}` : ""}&version=${version}`;
}

/** Where Parley serves the generated avatar of a user without an uploaded one. */
export function defaultAvatarPath(realmId: number, userId: number, medium = false): string {
  return `/user_avatars/${realmId}/defaults/${userId}${medium ? "-medium" : ""}.png`;
}

/** The avatar of a user nobody can find (GET /avatar/{unknown}), as Zulip's default avatar. */
export function unknownUserAvatarPath(medium = false): string {
  return `/static/images/default-avatar${medium ? "-medium" : ""}.png`;
}

/**
 * The avatar of a user the viewer may not access (Zulip's get_avatar_for_inaccessible_user, a
 * static image): the same for every such user, so it tells nothing about them.
 */
export const INACCESSIBLE_USER_AVATAR_PATH = "/static/images/unknown-user-avatar.png";

/**
 * A user's avatar_url: null when the client computes Gravatar URLs itself and may see the email
 * they are made from (client_gravatar), for a user without an uploaded avatar, if Gravatar is on.
 */
export function avatarUrl(user: AvatarUser, view: AvatarView, medium = false): string | null {
  if (user.avatar_source === "U") return `/user_avatars/${user.realm_id}/${user.id}${medium ? "-medium" : ""}.png?version=${user.avatar_version}`;
  // "J" (FL 456/466): a generated image instead of Gravatar, whatever the server's Gravatar setting.
  if (!view.gravatar || user.avatar_source === "J") return `${defaultAvatarPath(user.realm_id, user.id, medium)}?version=${user.avatar_version}`;
  return view.clientGravatar && view.viewerSeesEmail ? null : gravatarUrl(user.delivery_email, user.avatar_version, medium);
}

/** The URL of an avatar for a client that cannot compute it (the user's own, bots, GET /avatar). */
export function fullAvatarUrl(user: AvatarUser, gravatar: boolean, medium = false): string {
  return avatarUrl(user, { gravatar, clientGravatar: false, viewerSeesEmail: true }, medium) as string;
}

/** Where Parley serves the generated icon of a realm without an uploaded one. */
export function defaultRealmIconPath(realmId: number): string {
  return `/user_avatars/${realmId}/defaults/realm-icon.png`;
}

/** realm_icon_url (register) and realm_icon (server_settings): no realm uploads an icon in Parley. */
export function realmIconUrl(realm: { id: number; string_id: string }, gravatar: boolean): string {
  return gravatar ? `https://secure.gravatar.com/avatar/${md5(realm.string_id)}?d=identicon` : `${defaultRealmIconPath(realm.id)}?version=1`;
}
