/**
 * Nextcloud Talk and Constructor Groups calls (issue 17): refused with Zulip's "… credentials have
 * not been configured" on a server without the provider's settings; otherwise the server asks a
 * stand-in provider (a local HTTP server) for a room with the operator's credentials and answers
 * its URL, and the provider is among register's available providers with Zulip's id.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { afterEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { startStandIn, type StandIn, type StandInAnswer } from "../helpers/stand-in-server.js";
import { STORE_KINDS } from "../helpers/stores.js";

const EVERYONE = ["desdemona", "iago", "shiva", "hamlet", "othello", "cordelia", "polonius", "bot"] as const;

async function providers(t: TestRealm): Promise<Record<string, unknown>> {
  return (await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body.realm_available_video_chat_providers;
}

for (const kind of STORE_KINDS) {
  describe(`Nextcloud Talk and Constructor Groups calls [${kind}]`, () => {
    let t: TestRealm;
    let provider: StandIn | null = null;
    afterEach(async () => {
      await t.close();
      await provider?.close();
      provider = null;
    });

    it("refuses both on a server without their settings, and does not offer them", async () => {
      t = await createTestRealm(kind);
      assertError(await t.as("hamlet").post("/calls/nextcloud_talk/create", { room_name: "standup" }), "Nextcloud Talk credentials have not been configured");
      assertError(await t.as("hamlet").post("/calls/constructorgroups/create", {}), "Constructor Groups credentials have not been configured");
      const offered = await providers(t);
      assert.equal(offered.nextcloud_talk, undefined);
      assert.equal(offered.constructor_groups, undefined);
    });

    it("creates a public Nextcloud Talk conversation as the configured account and answers its call URL", async () => {
      let answer: StandInAnswer = { json: { ocs: { meta: { status: "ok" }, data: { token: "abc123tok" } } } };
      provider = await startStandIn(() => answer);
      t = await createTestRealm(kind, { nextcloudTalk: { server: `${provider.origin}/nextcloud/`, username: "zulip-bot", password: "app-password" } });

      const res = await t.as("hamlet").post("/calls/nextcloud_talk/create", { room_name: "#design > launch" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.url, `${provider.origin}/index.php/call/abc123tok`);
      const sent = provider.requests.at(-1)!;
      assert.equal(sent.method, "POST");
      assert.equal(sent.url.pathname, "/ocs/v2.php/apps/spreed/api/v4/room");
      assert.equal(sent.headers["ocs-apirequest"], "true");
      assert.equal(sent.headers.authorization, `Basic ${Buffer.from("zulip-bot:app-password").toString("base64")}`);
      assert.deepEqual(JSON.parse(sent.body), { roomType: 3, roomName: "#design > launch" });

      // Nextcloud limits names to 255 characters: longer ones are cut, ending with "...".
      await t.as("hamlet").post("/calls/nextcloud_talk/create", { room_name: "é".repeat(300) });
      assert.equal(JSON.parse(provider.requests.at(-1)!.body).roomName, `${"é".repeat(252)}...`);

      assertError(await t.as("hamlet").post("/calls/nextcloud_talk/create", {}), "Missing 'room_name' argument", "REQUEST_VARIABLE_MISSING");
      answer = { status: 401, text: "Unauthorized" };
      assertError(await t.as("hamlet").post("/calls/nextcloud_talk/create", { room_name: "x" }), "Error connecting to the Nextcloud Talk server: HTTP 401: Unauthorized");
      answer = { json: { ocs: { data: {} } } };
      assertError(await t.as("hamlet").post("/calls/nextcloud_talk/create", { room_name: "x" }), "Failed to create Nextcloud Talk call");
      answer = { text: "<html>not json</html>" };
      assertError(await t.as("hamlet").post("/calls/nextcloud_talk/create", { room_name: "x" }), "Failed to create Nextcloud Talk call");

      answer = { json: { ocs: { data: { token: "t" } } } };
      await checkPermissions(EVERYONE, (who) => t.as(who).post("/calls/nextcloud_talk/create", { room_name: "m" }));
      assert.deepEqual((await providers(t)).nextcloud_talk, { name: "Nextcloud Talk", id: 7 });
    });

    it("a Nextcloud server that cannot be reached is Zulip's connection error", async () => {
      provider = await startStandIn(() => ({}));
      const origin = provider.origin;
      await provider.close();
      provider = null;
      t = await createTestRealm(kind, { nextcloudTalk: { server: origin, username: "u", password: "p" } });
      const res = await t.as("hamlet").post("/calls/nextcloud_talk/create", { room_name: "x" });
      assert.equal(res.status, 400);
      assert.match(res.body.msg, /^Error connecting to the Nextcloud Talk server: /);
    });

    it("asks Constructor Groups for the user's default room with the signed access key", async () => {
      let answer: StandInAnswer = { json: { url: "https://example.constructor.app/groups/room/room-123", id: "room-123" } };
      provider = await startStandIn(() => answer);
      t = await createTestRealm(kind, { constructorGroups: { url: `${provider.origin}/api/groups/xapi`, accessKey: "access-key", secretKey: "secret-key" } });

      const res = await t.as("hamlet").post("/calls/constructorgroups/create", {});
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.url, "https://example.constructor.app/groups/room/room-123");
      const sent = provider.requests.at(-1)!;
      assert.equal(sent.url.pathname, "/api/groups/xapi/room/default");
      const hash = createHash("sha256").update("access-key|secret-key").digest("hex");
      assert.equal(sent.headers.authorization, `Bearer access-key|${hash}`);
      const hamlet = t.users.hamlet;
      const name = `${hamlet.fullName}'s Zulip room`;
      assert.deepEqual(JSON.parse(sent.body), { creator_email: hamlet.email, name, fallback_name: `${name} (${t.realmId}-${hamlet.id})` });

      // Unsupported parameters are ignored, as Zulip's endpoint takes none.
      const extra = await t.as("hamlet").post("/calls/constructorgroups/create", { room_name: "x" });
      assert.deepEqual(extra.body.ignored_parameters_unsupported, ["room_name"]);

      answer = { status: 403, json: { error: "forbidden" } };
      assertError(await t.as("hamlet").post("/calls/constructorgroups/create", {}), "Failed to create Constructor Groups call");
      answer = { json: { id: "room-without-url" } };
      assertError(await t.as("hamlet").post("/calls/constructorgroups/create", {}), "Failed to create Constructor Groups call");

      answer = { json: { url: "https://example.constructor.app/groups/room/r" } };
      await checkPermissions(EVERYONE, (who) => t.as(who).post("/calls/constructorgroups/create", {}));
      assert.deepEqual((await providers(t)).constructor_groups, { name: "Constructor Groups", id: 6 });
    });

    it("lets administrators choose the realm's provider among those this server offers (PATCH /realm video_chat_provider)", async () => {
      t = await createTestRealm(kind, { nextcloudTalk: { server: "https://cloud.example.com/", username: "zulip-bot", password: "app-password" } });
      const chosen = async () => (await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body.realm_video_chat_provider;
      assert.equal(await chosen(), 1, "Jitsi Meet by default, as Zulip");
      t.published.length = 0;
      const res = await t.as("iago").patch("/realm", { video_chat_provider: 7 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(await chosen(), 7);
      const updates = t.published.filter((p) => (p.event as { type: string; property?: string }).property === "video_chat_provider");
      assert.deepEqual(updates.map((p) => p.event), [{ type: "realm", op: "update", property: "video_chat_provider", value: 7 }]);
      // Constructor Groups (6) is not configured here, 2 was Google Hangouts: refused, nothing changed.
      for (const id of [6, 2, 99]) assertError(await t.as("iago").patch("/realm", { video_chat_provider: id }), `Invalid video_chat_provider ${id}`);
      assert.equal(await chosen(), 7);
      const member = await t.as("hamlet").patch("/realm", { video_chat_provider: 1 });
      assert.equal(member.status, 400);
      assert.equal(await chosen(), 7);
      assert.equal((await t.as("desdemona").patch("/realm", { video_chat_provider: 0 })).status, 200, "disabled is always offered");
      assert.equal(await chosen(), 0);
    });
  });
}
