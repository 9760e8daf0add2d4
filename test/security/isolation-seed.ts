/**
 * Realm B's objects for the cross-realm probes, and the shape of a probe: a request of realm A
 * that names an object by id (or name), sent once with realm B's id and once with an id nothing
 * has.
 */
import { readTx } from "../../src/store/db.js";
import { getSystemGroupByName } from "../../src/store/groups.js";
import type { Objects } from "./objects.js";
import type { ApiRequest } from "./world.js";

/** Realm B's objects, made through realm B's own API. */
export interface RealmB {
  userId: number;
  userEmail: string;
  botId: number;
  channel: { id: number; name: string };
  privateChannel: { id: number; name: string };
  messageId: number;
  directMessageId: number;
  groupId: number;
  systemGroupId: number;
  upload: { pathId: string; attachmentId: number };
  folderId: number;
  linkifierId: number;
  inviteId: number;
  multiuseInviteId: number;
  fieldId: number;
  emojiName: string;
  emojiId: string;
  draftId: number;
  queueId: string;
  pushDeviceId: number;
  savedSnippetId: number;
  clientDeviceId: number;
  scheduledMessageId: number;
  reminderId: number;
}

/** Realm A's own objects that probes combine with B's ids. */
export interface RealmA {
  channel: { id: number; name: string };
  messageId: number;
  groupId: number;
  userId: number;
  folderId: number;
  linkifierId: number;
  fieldId: number;
}

export async function seedRealmB(o: Objects): Promise<RealmB> {
  const { users } = o.realm;
  const channel = await o.channel(["hamlet", "othello"]);
  const privateName = o.name("secret ");
  const privateChannel = await o.ok("iago", { method: "POST", path: "/channels/create", params: { name: privateName, subscribers: o.ids("hamlet"), invite_only: true } });
  const upload = await o.upload("hamlet");
  await o.ok("hamlet", { method: "POST", path: "/users/me/presence", params: { status: "active" } });
  await o.ok("hamlet", { method: "POST", path: "/users/me/status", params: { status_text: `at ${o.label}` } });
  const store = readTx(o.realm.deps.store);
  const emojiName = await o.emoji("othello");
  const emoji = await o.ok("hamlet", { method: "GET", path: "/realm/emoji" });
  return {
    userId: users.hamlet.id,
    userEmail: users.hamlet.email,
    botId: (await o.bot("othello")).id,
    channel,
    privateChannel: { id: privateChannel.id, name: privateName },
    messageId: await o.message("hamlet", channel.name, o.label, `the [file](${upload.url})`),
    directMessageId: await o.directMessage("hamlet", ["othello"]),
    groupId: await o.group(["hamlet"]),
    systemGroupId: (await getSystemGroupByName(store, o.realm.realmId, "role:members")).id,
    upload,
    folderId: await o.folder(),
    linkifierId: await o.linkifier(),
    inviteId: await o.invite("iago"),
    multiuseInviteId: await o.multiuseInvite("iago"),
    fieldId: await o.profileField(),
    emojiName,
    emojiId: Object.keys(emoji.emoji).find((id) => emoji.emoji[id].name === emojiName)!,
    draftId: await o.draft("hamlet", channel.id),
    queueId: await o.queue("hamlet"),
    pushDeviceId: await o.e2eeDevice(users.hamlet),
    savedSnippetId: await o.savedSnippet("hamlet"),
    clientDeviceId: await o.clientDevice("hamlet"),
    scheduledMessageId: await o.scheduledMessage("hamlet", channel.id),
    reminderId: await o.reminder("othello", await o.message("hamlet", channel.name)),
  };
}

export interface Probe {
  request(value: number | string, a: RealmA): ApiRequest;
  /** The endpoint answers with the accessible subset: both answers succeed and list nothing. */
  listing?: boolean;
}

export interface Target {
  kind: string;
  /** B's value, and one no object has. */
  value(b: RealmB): number | string;
  missing: number | string;
  probes: Probe[];
}

export type Id = number | string;
export const get = (path: string, params?: Record<string, unknown>): ApiRequest => ({ method: "GET", path, params });
export const post = (path: string, params?: Record<string, unknown>): ApiRequest => ({ method: "POST", path, params });
export const patch = (path: string, params?: Record<string, unknown>): ApiRequest => ({ method: "PATCH", path, params });
export const del = (path: string, params?: Record<string, unknown>): ApiRequest => ({ method: "DELETE", path, params });
export const probes = (...requests: Array<(v: Id, a: RealmA) => ApiRequest>): Probe[] => requests.map((request) => ({ request }));
/** An id no object of the test has. */
export const MISSING = 987_654_321;
/** A time to schedule messages and reminders for: after the test clock's now (2023), whatever a test did with it. */
export const LATER = 2_000_000_000;

