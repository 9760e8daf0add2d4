/**
 * Fresh objects of every kind the security suites point at, made through the API by a user allowed
 * to make them (so each is a real, consistent object), one call per object. Names carry a counter,
 * so every object is new and a destructive call never meets a half-used one.
 */
import assert from "node:assert/strict";
import { readTx, transaction } from "../../src/store/db.js";
import { getAttachmentByPathId } from "../../src/store/attachments.js";
import { listPendingInvitations } from "../../src/store/invites.js";
import { upsertPushDevice, type PushDeviceKind } from "../../src/store/push.js";
import { getUserById } from "../../src/store/users.js";
import type { ApiResponse, TestUser, UserName } from "../helpers/fixtures.js";
import { newPushKey, tokenIdFor } from "../helpers/bouncer.js";
import { insertClientDevice, updateClientDevice } from "../../src/store/client-devices.js";
import type { ApiRequest, RealmHandle } from "./world.js";

type Who = UserName | TestUser;

/** A 1×1 PNG: the smallest image custom emoji accept. */
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

let counter = 0;
/** A name no other object of the run has. */
export function unique(prefix: string): string {
  return `${prefix}${++counter}`;
}

export class Objects {
  /** `label` starts the name of everything made (realm B's marker, so listings can be searched for it). */
  constructor(
    readonly realm: RealmHandle,
    readonly label = "",
  ) {}

  /** A new name starting with the label. */
  name(prefix: string): string {
    return unique(`${this.label}${prefix}`);
  }

  /** Text that carries the label. */
  labelled(text: string): string {
    return this.label ? `${this.label}: ${text}` : text;
  }

  /** Calls the API and asserts success, returning the body. */
  async ok(who: Who | null, req: ApiRequest): Promise<ApiResponse["body"]> {
    const res = await this.realm.call(who, req);
    assert.equal(res.status, 200, `${req.method} ${req.path} as ${typeof who === "string" ? who : who?.email}: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  ids(...users: Who[]): number[] {
    return users.map((u) => (typeof u === "string" ? this.realm.users[u].id : u.id));
  }

  /** A public channel (created by the administrator) with these subscribers. */
  async channel(subscribers: Who[] = []): Promise<{ id: number; name: string }> {
    const name = this.name("channel ");
    const body = await this.ok("iago", { method: "POST", path: "/channels/create", params: { name, subscribers: this.ids(...subscribers) } });
    return { id: body.id, name };
  }

  async message(sender: Who, channel: string, topic = "matrix", content = "a message"): Promise<number> {
    const params = { type: "stream", to: channel, topic, content: this.labelled(content) };
    return (await this.ok(sender, { method: "POST", path: "/messages", params })).id;
  }

  async directMessage(sender: Who, to: Who[]): Promise<number> {
    return (await this.ok(sender, { method: "POST", path: "/messages", params: { type: "direct", to: this.ids(...to), content: this.labelled("a secret") } })).id;
  }

  /** A user group with these members, created by the administrator. */
  async group(members: Who[] = ["othello"]): Promise<number> {
    const params = { name: this.name("group "), description: "", members: this.ids(...members) };
    return (await this.ok("iago", { method: "POST", path: "/user_groups/create", params })).group_id;
  }

  async folder(): Promise<number> {
    return (await this.ok("iago", { method: "POST", path: "/channel_folders/create", params: { name: this.name("folder "), description: "" } })).channel_folder_id;
  }

  async linkifier(): Promise<number> {
    const params = { pattern: `${this.name("T")}-(?P<id>[0-9]+)`, url_template: "https://tracker.example.com/{id}" };
    return (await this.ok("iago", { method: "POST", path: "/realm/filters", params })).id;
  }

  /** A short-text custom profile field that users may edit. */
  async profileField(): Promise<number> {
    const params = { field_type: 1, name: this.name("field "), hint: "", editable_by_user: true };
    return (await this.ok("iago", { method: "POST", path: "/realm/profile_fields", params })).id;
  }

  /** A new account of this role (created by the administrator; the owner grants other roles). */
  async user(role = 400): Promise<TestUser> {
    const email = `${this.name("user")}@${this.realm.subdomain}.test`;
    const body = await this.ok("iago", { method: "POST", path: "/users", params: { email, password: "a strong password 1", full_name: email } });
    if (role !== 400) await this.ok("desdemona", { method: "PATCH", path: `/users/${body.user_id}`, params: { role } });
    const row = await getUserById(readTx(this.realm.deps.store), this.realm.realmId, body.user_id);
    return { id: body.user_id, email, apiKey: row!.api_key, fullName: email, role };
  }

  async deactivatedUser(): Promise<TestUser> {
    const user = await this.user();
    await this.ok("iago", { method: "DELETE", path: `/users/${user.id}` });
    return user;
  }

  /** A generic bot owned by `owner`. */
  async bot(owner: Who): Promise<TestUser> {
    const shortName = this.name("matrix");
    const body = await this.ok(owner, { method: "POST", path: "/bots", params: { full_name: `${shortName} bot`, short_name: shortName } });
    const row = await getUserById(readTx(this.realm.deps.store), this.realm.realmId, body.user_id);
    return { id: body.user_id, email: row!.delivery_email, apiKey: body.api_key, fullName: shortName, role: 400 };
  }

  /** An email invitation sent by `by`; its id. */
  async invite(by: Who): Promise<number> {
    const email = `${this.name("invitee")}@example.com`;
    await this.ok(by, { method: "POST", path: "/invites", params: { invitee_emails: email, stream_ids: [] } });
    return this.newestInvite(by);
  }

  async multiuseInvite(by: Who): Promise<number> {
    await this.ok(by, { method: "POST", path: "/invites/multiuse", params: {} });
    return this.newestInvite(by);
  }

  private async newestInvite(by: Who): Promise<number> {
    const referrer = typeof by === "string" ? this.realm.users[by] : by;
    const pending = await listPendingInvitations(readTx(this.realm.deps.store), this.realm.realmId, this.realm.clock.now(), referrer.id);
    return pending[pending.length - 1].id;
  }

  /** A custom emoji uploaded by `by`; its name. */
  async emoji(by: Who): Promise<string> {
    const name = this.name("emoji");
    await this.ok(by, { method: "POST", path: `/realm/emoji/${name}`, files: [{ filename: "e.png", content: PNG, contentType: "image/png" }] });
    return name;
  }

  /** A file uploaded by `by`: its path below /user_uploads/ and its attachment id. */
  async upload(by: Who): Promise<{ pathId: string; url: string; attachmentId: number }> {
    const body = await this.ok(by, { method: "POST", path: "/user_uploads", files: [{ filename: `${this.name("file")}.txt`, content: "payload" }] });
    const pathId = String(body.url).replace(/^\/user_uploads\//, "");
    const row = await getAttachmentByPathId(readTx(this.realm.deps.store), this.realm.realmId, pathId);
    return { pathId, url: body.url, attachmentId: row!.id };
  }

  async draft(by: Who, channelId: number): Promise<number> {
    const drafts = [{ type: "stream", to: [channelId], topic: "draft", content: this.name("draft ") }];
    return (await this.ok(by, { method: "POST", path: "/drafts", params: { drafts } })).ids[0];
  }

  /** An hour from now on the realm's clock: a time to schedule for. */
  later(): number {
    return this.realm.clock.now() + 3600;
  }

  /** A message `by` scheduled to a channel for an hour from now. */
  async scheduledMessage(by: Who, channelId: number): Promise<number> {
    const params = { type: "stream", to: channelId, topic: "later", content: this.name("scheduled "), scheduled_delivery_timestamp: this.later() };
    return (await this.ok(by, { method: "POST", path: "/scheduled_messages", params })).scheduled_message_id;
  }

  /** A reminder `by` set about a message for an hour from now. */
  async reminder(by: Who, messageId: number): Promise<number> {
    return (await this.ok(by, { method: "POST", path: "/reminders", params: { message_id: messageId, scheduled_delivery_timestamp: this.later() } })).reminder_id;
  }

  /** A saved snippet of `by`. */
  async savedSnippet(by: Who): Promise<number> {
    return (await this.ok(by, { method: "POST", path: "/saved_snippets", params: { title: "snippet", content: this.name("snippet ") } })).saved_snippet_id;
  }

  /** A logged-in device record of `by` (POST /register_client_device). */
  async clientDevice(by: Who): Promise<number> {
    return (await this.ok(by, { method: "POST", path: "/register_client_device", params: {} })).device_id;
  }

  /** An event queue registered by `by`. */
  async queue(by: Who): Promise<string> {
    return (await this.ok(by, { method: "POST", path: "/register", params: { event_types: ["message"], fetch_event_types: ["message"] } })).queue_id;
  }

  /** Parameters registering a push key and token for the client device `deviceId` (FL 468). */
  pushRegistration(deviceId: number): Record<string, unknown> {
    return {
      device_id: deviceId,
      push_key_id: ++counter,
      push_key: newPushKey().pushKey,
      token_kind: "fcm",
      token_id: tokenIdFor(`fcm-token-${counter}`),
      bouncer_public_key: "bouncer-key-1",
      encrypted_push_registration: "opaque-for-the-relay",
    };
  }

  /** A legacy push token registration of `by`, written straight to the store (bots may not make one). */
  async pushDevice(by: TestUser, kind: PushDeviceKind, token = String(++counter)): Promise<number> {
    const device = { userId: by.id, kind, token, appId: null, now: this.realm.clock.now() };
    return transaction(this.realm.deps.store, (tx) => upsertPushDevice(tx, device));
  }

  /** A client device of `by` with a completed E2EE registration, written straight to the store. */
  async e2eeDevice(by: TestUser): Promise<number> {
    return transaction(this.realm.deps.store, async (tx) => {
      const id = await insertClientDevice(tx, by.id, this.realm.clock.now());
      await updateClientDevice(tx, id, {
        push_key: newPushKey().pushKey,
        push_key_id: ++counter,
        push_token_id: tokenIdFor(`token-${counter}`),
        push_token_kind: "fcm",
        push_token_last_updated_timestamp: this.realm.clock.now(),
      });
      return id;
    });
  }
}
