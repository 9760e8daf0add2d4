/** Bots: create, list, update and deactivate (Zulip's bot endpoints), on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { checkCreateRealm } from "../../src/actions/realm/realms.js";
import { fakeEmailDomain } from "../../src/policy/email-visibility.js";
import { transaction } from "../../src/store/db.js";
import { getSystemGroupByName } from "../../src/store/groups.js";
import { updateRealm } from "../../src/store/realms.js";
import { createTestRealm, type TestRealm, type TestUser } from "../helpers/fixtures.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

/**
 * Zulip's get_fake_email_domain: the realm host "zulip.testserver.local:9991" carries a port, so no
 * address can end with it, and FAKE_EMAIL_DOMAIN (EXTERNAL_HOST without its port) is used.
 */
const DOMAIN = "testserver.local";

for (const kind of STORE_KINDS) {
  describe(`bots [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    async function makeBot(short: string, as: "hamlet" | "iago" = "hamlet", extra: Record<string, unknown> = {}) {
      const res = await t.as(as).post("/bots", { full_name: `${short} bot`, short_name: short, ...extra });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as { user_id: number; api_key: string };
    }

    it("creates a bot owned by its creator, with a working API key", async () => {
      t.published.length = 0;
      const res = await t.as("hamlet").post("/bots", { full_name: "Weather", short_name: "weather" });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.match(res.body.api_key, /^[A-Za-z0-9]{32}$/);
      assert.equal(res.body.default_sending_stream, null);
      assert.equal(res.body.default_all_public_streams, false);
      const user = (await t.as("othello").get(`/users/${res.body.user_id}`)).body.user;
      assert.equal(user.email, `weather-bot@${DOMAIN}`);
      assert.equal(user.delivery_email, `weather-bot@${DOMAIN}`);
      assert.equal(user.bot_type, 1);
      assert.equal(user.bot_owner_id, t.users.hamlet.id);
      const me = await t.as({ id: res.body.user_id, email: user.email, apiKey: res.body.api_key } as TestUser).get("/users/me");
      assert.equal(me.status, 200, JSON.stringify(me.body));
      const added = t.published.find((e) => e.event.type === "realm_bot" && e.event.op === "add");
      assert.equal((added?.event.bot as { api_key: string }).api_key, res.body.api_key);
      assert.ok(added?.userIds.includes(t.users.hamlet.id) && added.userIds.includes(t.users.iago.id));
      assert.ok(!added?.userIds.includes(t.users.othello.id));
      const userAdd = t.published.find((e) => e.event.type === "realm_user" && e.event.op === "add");
      assert.ok(userAdd?.userIds.includes(t.users.othello.id));
    });

    it("refuses bad names, types and channels", async () => {
      await makeBot("taken");
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ full_name: "A", short_name: "  " }, "Bad name or username"],
        [{ full_name: "B", short_name: "taken" }, "Username already in use"],
        [{ full_name: "taken bot", short_name: "other" }, "Name is already in use!"],
        [{ full_name: "", short_name: "c" }, "Name too short!"],
        [{ full_name: "D", short_name: "d", bot_type: 9 }, "Invalid bot type"],
        [{ full_name: "E", short_name: "e", bot_type: 4 }, "Embedded bots are not enabled."],
        [{ full_name: "F", short_name: "f", interface_type: 5 }, "Invalid interface type"],
        [{ full_name: "G", short_name: "g", default_sending_stream: "Nowhere" }, "Invalid channel name 'Nowhere'"],
      ];
      for (const [params, msg] of cases) {
        const res = await t.as("hamlet").post("/bots", params);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.msg, msg);
      }
    });

    it("follows can_create_bots_group, with webhook bots allowed by the write-only setting", async () => {
      let n = 0;
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet"], (caller) =>
        t.as(caller).post("/bots", { full_name: `Perm ${++n}`, short_name: `perm${n}` }),
      );
      assertError(await t.as("polonius").post("/bots", { full_name: "P", short_name: "p" }), "Not allowed for guest users");
      assertError(await t.as("bot").post("/bots", { full_name: "Q", short_name: "q" }), "This endpoint does not accept bot requests.");
      await transaction(t.deps.store, async (tx) =>
        updateRealm(tx, t.realmId, { can_create_bots_group_id: (await getSystemGroupByName(tx, t.realmId, "role:administrators")).id }),
      );
      assertError(await t.as("hamlet").post("/bots", { full_name: "Generic", short_name: "generic" }), "Insufficient permission");
      await makeBot("hook", "hamlet", { bot_type: 2 });
      await makeBot("admins", "iago");
    });

    it("lists the caller's own active bots with their keys", async () => {
      const bot = await makeBot("mine");
      await makeBot("theirs", "iago");
      const res = await t.as("hamlet").get("/bots");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.bots.map((b: { username: string }) => b.username), [`mine-bot@${DOMAIN}`]);
      assert.equal(res.body.bots[0].api_key, bot.api_key);
      assert.deepEqual((await t.as("othello").get("/bots")).body.bots, []);
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet"], (caller) => t.as(caller).get("/bots"));
    });

    it("gives a bot's API key to its owner and administrators (FL 463)", async () => {
      const bot = await makeBot("keyed");
      for (const caller of ["hamlet", "iago"] as const) {
        const res = await t.as(caller).get(`/bots/${bot.user_id}/api_key`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body, { result: "success", msg: "", api_key: bot.api_key });
      }
      assertError(await t.as("othello").get(`/bots/${bot.user_id}/api_key`), "Insufficient permission");
      assertError(await t.as("hamlet").get(`/bots/${t.users.othello.id}/api_key`), "No such bot");
      assertError(await t.as("hamlet").get("/bots/99999/api_key"), "No such bot");
      assertError(await t.as("polonius").get(`/bots/${bot.user_id}/api_key`), "Not allowed for guest users");
    });

    it("updates a bot for its owner and administrators", async () => {
      const bot = await makeBot("upd");
      t.published.length = 0;
      const renamed = await t.as("hamlet").patch(`/bots/${bot.user_id}`, { full_name: "Renamed bot", default_all_public_streams: true });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.equal(renamed.body.full_name, "Renamed bot");
      assert.equal(renamed.body.default_all_public_streams, true);
      assert.equal(renamed.body.bot_owner, "hamlet@zulip.test");
      assert.ok(t.published.some((e) => e.event.type === "realm_bot" && (e.event.bot as { full_name?: string }).full_name === "Renamed bot"));
      assertError(await t.as("othello").patch(`/bots/${bot.user_id}`, { full_name: "Mine now" }), "Insufficient permission");
      assertError(await t.as("hamlet").patch(`/bots/${t.users.othello.id}`, { full_name: "X" }), "No such bot");
      assertError(await t.as("hamlet").patch(`/bots/${bot.user_id}`, { role: 200 }), "Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL");
      assertError(await t.as("iago").patch(`/bots/${bot.user_id}`, { bot_owner_id: 99999 }), "Failed to change owner, no such user");
      assertError(await t.as("iago").patch(`/bots/${bot.user_id}`, { bot_owner_id: t.users.bot.id }), "Failed to change owner, bots can't own other bots");
      const moved = await t.as("iago").patch(`/bots/${bot.user_id}`, { bot_owner_id: t.users.othello.id, role: 300 });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      const user = (await t.as("othello").get(`/users/${bot.user_id}`)).body.user;
      assert.equal(user.bot_owner_id, t.users.othello.id);
      assert.equal(user.role, 300);
      await checkPermissions(["desdemona", "iago"], (caller) => t.as(caller).patch(`/bots/${bot.user_id}`, { full_name: `By ${caller}` }));
    });

    it("changes a bot's email with a new short name (FL 447)", async () => {
      const bot = await makeBot("old");
      await makeBot("taken");
      t.published.length = 0;
      const res = await t.as("hamlet").patch(`/bots/${bot.user_id}`, { short_name: " fresh " });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const user = (await t.as("othello").get(`/users/${bot.user_id}`)).body.user;
      assert.equal(user.email, `fresh-bot@${DOMAIN}`);
      assert.equal(user.delivery_email, `fresh-bot@${DOMAIN}`);
      const emailEvent = t.published.find((e) => e.event.type === "realm_user" && (e.event.person as { new_email?: string }).new_email !== undefined);
      assert.deepEqual(emailEvent?.event.person, { user_id: bot.user_id, new_email: `fresh-bot@${DOMAIN}` });
      assert.ok(!t.published.some((e) => e.event.type === "realm_bot"), "no realm_bot update for an email change since FL 474");
      // The bot now signs in with its new address.
      const asBot = (email: string) => t.as({ id: bot.user_id, email, apiKey: bot.api_key } as TestUser).get("/users/me");
      assert.equal((await asBot(`fresh-bot@${DOMAIN}`)).status, 200);
      assert.equal((await asBot(`old-bot@${DOMAIN}`)).status, 401);
      // The same name is no change; a taken or empty one is refused; others may not.
      assert.equal((await t.as("iago").patch(`/bots/${bot.user_id}`, { short_name: "fresh" })).status, 200);
      assertError(await t.as("hamlet").patch(`/bots/${bot.user_id}`, { short_name: "taken" }), "Username already in use");
      assertError(await t.as("hamlet").patch(`/bots/${bot.user_id}`, { short_name: "  " }), "Bad name or username");
      assertError(await t.as("hamlet").patch(`/bots/${bot.user_id}`, { short_name: "a b" }), "Bad name or username");
      assertError(await t.as("othello").patch(`/bots/${bot.user_id}`, { short_name: "mine" }), "Insufficient permission");
      assert.equal((await t.as("othello").get(`/users/${bot.user_id}`)).body.user.email, `fresh-bot@${DOMAIN}`);
    });

    it("deactivates a bot for its owner", async () => {
      const bot = await makeBot("gone");
      assertError(await t.as("othello").delete(`/bots/${bot.user_id}`), "Insufficient permission");
      assert.equal((await t.as("hamlet").delete(`/bots/${bot.user_id}`)).status, 200);
      assert.equal((await t.as("hamlet").get(`/users/${bot.user_id}`)).body.user.is_active, false);
      assertError(await t.as("hamlet").delete(`/bots/${bot.user_id}`), "User is deactivated");
      const bots = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => makeBot(`del${i}`, "iago")));
      let i = 0;
      await checkPermissions(["desdemona", "iago"], (caller) => t.as(caller).delete(`/bots/${bots[i++].user_id}`));
    });
  });
}

describe("bot and placeholder address domains (Zulip's get_fake_email_domain)", () => {
  const domain = (externalHost: string, subdomain: string, fake: string | null = null) => fakeEmailDomain({ externalHost, fakeEmailDomain: fake }, subdomain);

  it("use the realm host when an address can end with it, else FAKE_EMAIL_DOMAIN", () => {
    assert.equal(domain("chat.example.com", "zulip"), "zulip.chat.example.com");
    assert.equal(domain("chat.example.com", ""), "chat.example.com");
    // A port cannot end an address: EXTERNAL_HOST without it, Zulip's default FAKE_EMAIL_DOMAIN.
    assert.equal(domain("chat.example.com:8443", "zulip"), "chat.example.com");
    // The default install: Django's validator allows "localhost" although it has no dot.
    assert.equal(domain("localhost:9991", ""), "localhost");
    assert.equal(domain("localhost:9991", "zulip"), "localhost");
    assert.equal(domain("localhost", ""), "localhost");
    assert.equal(domain("myhost:9991", "", "bots.example.org"), "bots.example.org");
    assert.throws(() => domain("myhost:9991", ""), /myhost is not a valid domain\. Consider setting the FAKE_EMAIL_DOMAIN setting\./);
  });
});

for (const kind of STORE_KINDS) {
  describe(`bots on the default install, EXTERNAL_HOST localhost:9991 [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind, { externalHost: "localhost:9991" });
    });
    afterEach(() => t.close());

    it("are created in the root realm and in a subdomain, addressed @localhost (issue 15: 'Bad name or username' before)", async () => {
      const root = await checkCreateRealm(t.deps.store, { subdomain: "", name: "Root", ownerEmail: "ann@root.test", ownerName: "Ann", ownerPassword: "pw-ann-123" }, t.clock.now());
      const ann = { id: root.owner.userId, email: root.owner.email, apiKey: root.owner.apiKey } as TestUser;
      const inRoot = await t.as(ann, { host: "localhost:9991" }).post("/bots", { full_name: "Root helper", short_name: "helper" });
      assert.equal(inRoot.status, 200, JSON.stringify(inRoot.body));
      const made = (await t.as(ann, { host: "localhost:9991" }).get(`/users/${inRoot.body.user_id}`)).body.user;
      assert.equal(made.delivery_email, "helper-bot@localhost");
      const bot = { id: inRoot.body.user_id, email: made.email, apiKey: inRoot.body.api_key } as TestUser;
      assert.equal((await t.as(bot, { host: "localhost:9991" }).get("/users/me")).status, 200);
      const inZulip = await t.as("hamlet", { host: "zulip.localhost:9991" }).post("/bots", { full_name: "Zulip helper", short_name: "helper" });
      assert.equal(inZulip.status, 200, JSON.stringify(inZulip.body));
      assert.equal((await t.as("hamlet", { host: "zulip.localhost:9991" }).get(`/users/${inZulip.body.user_id}`)).body.user.delivery_email, "helper-bot@localhost");
    });
  });
}
