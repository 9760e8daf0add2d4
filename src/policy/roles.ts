/** Organization roles (spec conventions 7) and the pure predicates on them. */
import type { UserRow } from "../store/types.js";

export const ROLE = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;
export const ROLES: readonly number[] = Object.values(ROLE);

export const BOT_TYPE = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;
export const BOT_TYPES: readonly number[] = Object.values(BOT_TYPE);

/** The system group whose direct member a user of this role is (zulip-facts section g). */
export const ROLE_SYSTEM_GROUP: Record<number, string> = {
  [ROLE.OWNER]: "role:owners",
  [ROLE.ADMINISTRATOR]: "role:administrators",
  [ROLE.MODERATOR]: "role:moderators",
  [ROLE.MEMBER]: "role:members",
  [ROLE.GUEST]: "role:everyone",
};

type WithRole = Pick<UserRow, "role">;

export const isOwner = (u: WithRole) => u.role === ROLE.OWNER;
export const isRealmAdmin = (u: WithRole) => u.role <= ROLE.ADMINISTRATOR;
export const isModerator = (u: WithRole) => u.role <= ROLE.MODERATOR;
export const isGuest = (u: WithRole) => u.role === ROLE.GUEST;
