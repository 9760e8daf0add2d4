/** Plain row types handed out by the store. */
import type { Insertable, Selectable, Updateable } from "kysely";
import type { DB } from "./schema.js";

export type RealmRow = Selectable<DB["realms"]>;
export type NewRealm = Insertable<DB["realms"]>;
export type RealmUpdate = Updateable<DB["realms"]>;
export type UserRow = Selectable<DB["users"]>;
export type NewUser = Insertable<DB["users"]>;
export type UserUpdate = Updateable<DB["users"]>;
export type UserGroupRow = Selectable<DB["user_groups"]>;
export type NewUserGroup = Insertable<DB["user_groups"]>;
export type UserGroupUpdate = Updateable<DB["user_groups"]>;
export type ChannelRow = Selectable<DB["channels"]>;
export type NewChannel = Insertable<DB["channels"]>;
export type ChannelUpdate = Updateable<DB["channels"]>;
export type SubscriptionRow = Selectable<DB["subscriptions"]>;
export type MessageRow = Selectable<DB["messages"]>;
/** `messages.type`: how a message's recipient is stored (Zulip's Recipient.STREAM / PERSONAL-or-group). */
export const MESSAGE_TYPE = { CHANNEL: 2, DIRECT: 1 } as const;
export type NewMessage = Insertable<DB["messages"]>;
export type ChannelFolderRow = Selectable<DB["channel_folders"]>;
