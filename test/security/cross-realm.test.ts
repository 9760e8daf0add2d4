/**
 * Cross-realm isolation (issue 9, item 1): two realms on one server, A ("zulip") and B
 * ("elsinore"). Nothing of realm B is readable or writable from realm A:
 * - every probe (isolation-probes*.ts) that names one of B's objects from realm A, as A's owner,
 *   gets exactly the answer the same request gets for an id nothing has;
 * - realm A's listings and event queue never mention anything of realm B;
 * - realm B, seen through its own API, is unchanged after all of it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ApiResponse, UserName } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { CONVERSATION_TARGETS } from "./isolation-probes.js";
import { ORGANIZATION_TARGETS } from "./isolation-probes-org.js";
import { seedRealmB, type Id, type RealmA, type RealmB } from "./isolation-seed.js";
import { Objects } from "./objects.js";
import { CAST_NAMES } from "./permission-samples.js";
import { createWorld, REALM_B, type ApiRequest, type RealmHandle, type World } from "./world.js";

/** The response as text with the probed value masked, so B's answer and the missing one compare. */
function masked(res: ApiResponse, value: Id): string {
  const escaped = String(value).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const text = JSON.stringify({ status: res.status, body: res.body });
  return text.replace(new RegExp(`(?<![0-9A-Za-z])${escaped}(?![0-9A-Za-z])`, "g"), "<id>");
}

/** What realm A's owner can list: none of it may carry realm B's marker. */
const LISTINGS: ApiRequest[] = [
  { method: "GET", path: "/users" },
  { method: "GET", path: "/streams", params: { include_all: true } },
  { method: "GET", path: "/user_groups" },
  { method: "GET", path: "/channel_folders" },
  { method: "GET", path: "/realm/linkifiers" },
  { method: "GET", path: "/invites" },
  { method: "GET", path: "/realm/profile_fields" },
  { method: "GET", path: "/realm/emoji" },
  { method: "GET", path: "/realm/presence" },
  { method: "GET", path: "/attachments" },
  { method: "GET", path: "/drafts" },
  { method: "GET", path: "/scheduled_messages" },
  { method: "GET", path: "/reminders" },
  { method: "GET", path: "/bots" },
  { method: "GET", path: "/messages", params: { anchor: "newest", num_before: 1000, num_after: 0, narrow: [{ operator: "channels", operand: "public" }] } },
  { method: "POST", path: "/register", params: {} },
];

/** Realm B through its own API: everything the probes could have touched. */
async function snapshotB(b: RealmHandle, objects: RealmB): Promise<string> {
  const reads: Array<[UserName, ApiRequest]> = [
    ["desdemona", { method: "GET", path: "/users", params: { include_custom_profile_fields: true } }],
    ["desdemona", { method: "GET", path: "/streams", params: { include_all: true } }],
    ["desdemona", { method: "GET", path: "/user_groups" }],
    ["desdemona", { method: "GET", path: "/channel_folders" }],
    ["desdemona", { method: "GET", path: "/realm/linkifiers" }],
    ["desdemona", { method: "GET", path: "/invites" }],
    ["desdemona", { method: "GET", path: "/realm/profile_fields" }],
    ["desdemona", { method: "GET", path: "/realm/emoji" }],
    ["othello", { method: "GET", path: "/bots" }],
    ["hamlet", { method: "GET", path: `/messages/${objects.messageId}` }],
    ["hamlet", { method: "GET", path: `/messages/${objects.directMessageId}` }],
    ["hamlet", { method: "GET", path: `/messages/${objects.messageId}/history` }],
    ["hamlet", { method: "GET", path: "/users/me/subscriptions", params: { include_subscribers: true } }],
    ["hamlet", { method: "GET", path: "/attachments" }],
    ["hamlet", { method: "GET", path: "/drafts" }],
    ["hamlet", { method: "GET", path: "/scheduled_messages" }],
    ["othello", { method: "GET", path: "/reminders" }],
    ["hamlet", { method: "GET", path: `/users/${objects.userId}/status` }],
    ["hamlet", { method: "GET", path: "/events", params: { queue_id: objects.queueId, dont_block: true } }],
  ];
  const answers = [];
  for (const [who, req] of reads) answers.push((await b.call(who, req)).body);
  return JSON.stringify(answers);
}

for (const kind of STORE_KINDS) {
  describe(`cross-realm isolation [${kind}]`, () => {
    let world: World;
    let realmB: RealmB;
    let realmA: RealmA;
    let queueA: string;
    let snapshotBefore: string;
    before(async () => {
      world = await createWorld(kind);
      const a = new Objects(world.a);
      // Realm A listens from the start, so any event realm B's seeding leaks would be queued here.
      queueA = (await a.ok("desdemona", { method: "POST", path: "/register", params: { all_public_streams: true } })).queue_id;
      realmB = await seedRealmB(new Objects(world.b, REALM_B));
      const channel = await a.channel([...CAST_NAMES]);
      // Realm A takes message reports, so a report naming B's message gets as far as looking it up.
      const moderation = await a.ok("iago", { method: "POST", path: "/channels/create", params: { name: a.name("moderation "), subscribers: a.ids("iago"), invite_only: true } });
      await a.ok("iago", { method: "PATCH", path: "/realm", params: { moderation_request_channel_id: moderation.id } });
      realmA = {
        channel,
        messageId: await a.message("othello", channel.name),
        groupId: await a.group(["othello"]),
        userId: world.a.users.othello.id,
        folderId: await a.folder(),
        linkifierId: await a.linkifier(),
        fieldId: await a.profileField(),
      };
      snapshotBefore = await snapshotB(world.b, realmB);
    });
    after(() => world.close());

    it("realm A's listings and event queue mention nothing of realm B", async () => {
      const marker = new RegExp(REALM_B, "i");
      for (const req of LISTINGS) {
        const res = await world.a.call("desdemona", req);
        assert.equal(res.status, 200, `${req.method} ${req.path}: ${JSON.stringify(res.body)}`);
        assert.doesNotMatch(JSON.stringify(res.body), marker, `${req.method} ${req.path} shows realm B`);
      }
      const events = await world.a.call("desdemona", { method: "GET", path: "/events", params: { queue_id: queueA, dont_block: true } });
      assert.equal(events.status, 200);
      assert.doesNotMatch(JSON.stringify(events.body), marker, "realm A's event queue got realm B's events");
    });

    for (const target of [...CONVERSATION_TARGETS, ...ORGANIZATION_TARGETS]) {
      it(`realm B's ${target.kind} is as missing from realm A as one that does not exist`, async () => {
        const wrong: string[] = [];
        const value = target.value(realmB);
        for (const probe of target.probes) {
          const missingReq = probe.request(target.missing, realmA);
          const missing = await world.a.call("desdemona", missingReq);
          const fromB = await world.a.call("desdemona", probe.request(value, realmA));
          const label = `${missingReq.method} ${missingReq.path}`;
          if (masked(fromB, value) !== masked(missing, target.missing)) {
            wrong.push(`${label}: with B's id ${masked(fromB, value)}\n    with a missing id ${masked(missing, target.missing)}`);
          } else if (!probe.listing && fromB.status < 400) {
            wrong.push(`${label}: succeeds for a missing id too (${fromB.status}); the probe tests nothing`);
          }
        }
        assert.deepEqual(wrong, [], wrong.join("\n"));
      });
    }

    it("realm B, seen through its own API, is unchanged", async () => {
      assert.equal(await snapshotB(world.b, realmB), snapshotBefore);
    });
  });
}
