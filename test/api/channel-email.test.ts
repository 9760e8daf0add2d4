/**
 * A channel's email gateway address (Zulip's get-stream-email-address; FL 226, `sender_id` FL 335,
 * posting permission FL 448), on every store, plus the address encoding on its own.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { channelEmailName, encodeChannelEmailAddress } from "../../src/lib/channel-email.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { systemGroupId } from "../helpers/channels.js";
import { createChannel } from "../helpers/conversations.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const PATTERN = "%s@mail.example.com";
const ADDRESS = /^([a-z0-9-]+\.)?([0-9a-f]{32})\.show-sender@mail\.example\.com$/;

describe("channel email address encoding (Zulip's encode_email_address)", () => {
  it("keeps an ASCII form of the name only when no letter is lost", () => {
    const cases: Array<[string, string]> = [
      ["Denmark", "denmark"],
      ["test stream", "test-stream"],
      ["général", "general"],
      ["a.b+c", "a-b-c"],
      ["--x--", ""],
      ["x-y", "x-y"],
      ["日本", ""],
      ["Café 日本", ""],
      ["under_score", "under_score"],
    ];
    for (const [name, slug] of cases) assert.equal(channelEmailName(name), slug, name);
    assert.equal(encodeChannelEmailAddress(PATTERN, "Denmark", "0123"), "denmark.0123.show-sender@mail.example.com");
    assert.equal(encodeChannelEmailAddress(PATTERN, "日本", "0123"), "0123.show-sender@mail.example.com");
    assert.equal(encodeChannelEmailAddress("", "Denmark", "0123"), "");
  });
});

for (const kind of STORE_KINDS) {
  describe(`GET /streams/{id}/email_address [${kind}]`, () => {
    let t: TestRealm;
    let lounge: number;
    beforeEach(async () => {
      t = await createTestRealm(kind, { emailGatewayPattern: PATTERN });
      lounge = await createChannel(t, "Lounge room", ["hamlet", "othello", "bot"]);
    });
    afterEach(() => t.close());

    const address = async (who: "hamlet" | "othello" | "iago" | "desdemona", params: Record<string, unknown> = {}, id = lounge) => {
      const res = await t.as(who).get(`/streams/${id}/email_address`, params);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body).sort(), ["email", "msg", "result"]);
      return res.body.email as string;
    };

    it("gives a stable address per user and sender, named after the channel", async () => {
      const mine = await address("hamlet");
      const match = ADDRESS.exec(mine);
      assert.ok(match, mine);
      assert.equal(match[1], "lounge-room.");
      assert.equal(await address("hamlet"), mine);
      // Another user, or another sender, gets another token.
      const theirs = await address("othello");
      assert.notEqual(ADDRESS.exec(theirs)![2], match[2]);
      const asSelf = await address("hamlet", { sender_id: t.users.hamlet.id });
      assert.notEqual(ADDRESS.exec(asSelf)![2], match[2]);
      assert.equal(await address("hamlet", { sender_id: t.users.hamlet.id }), asSelf);
    });

    it("lets a bot be the sender only for its owner or an administrator", async () => {
      const created = await t.as("hamlet").post("/bots", { full_name: "Mail Bot", short_name: "mail" });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const botId = created.body.user_id as number;
      assert.match(await address("hamlet", { sender_id: botId }), ADDRESS);
      assert.match(await address("iago", { sender_id: botId }, await createChannel(t, "admins", ["iago"])), ADDRESS);
      assertError(await t.as("othello").get(`/streams/${lounge}/email_address`, { sender_id: botId }), "Insufficient permission");
      assertError(await t.as("hamlet").get(`/streams/${lounge}/email_address`, { sender_id: t.users.othello.id }), "No such bot");
      assertError(await t.as("hamlet").get(`/streams/${lounge}/email_address`, { sender_id: 999_999 }), "No such bot");
      assertError(await t.as("hamlet").get(`/streams/${lounge}/email_address`, { sender_id: "x" }), "sender_id is not an integer", "REQUEST_VARIABLE_INVALID");
    });

    it("refuses channels the caller cannot read, and (FL 448) channels the caller may not post in", async () => {
      const secret = await createChannel(t, "secret", ["othello"], { invite_only: true });
      assertError(await t.as("hamlet").get(`/streams/${secret}/email_address`), "Invalid channel ID");
      assertError(await t.as("hamlet").get("/streams/999999/email_address"), "Invalid channel ID");
      const res = await t.as("iago").patch(`/streams/${lounge}`, { can_send_message_group: { new: await systemGroupId(t, "role:administrators") } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assertError(await t.as("hamlet").get(`/streams/${lounge}/email_address`), "You do not have permission to post in this channel.");
      assert.match(await address("iago"), ADDRESS);
    });

    it("answers an empty address when no email gateway is configured, as Zulip does", async () => {
      const plain = await createTestRealm(kind);
      try {
        const channel = await createChannel(plain, "lounge", ["hamlet"]);
        const res = await plain.as("hamlet").get(`/streams/${channel}/email_address`);
        assert.deepEqual(res.body, { result: "success", msg: "", email: "" });
      } finally {
        await plain.close();
      }
    });

    it("is open to every role that can post, guests and bots included", async () => {
      const everyone = await createChannel(t, "everyone", ["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"]);
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => t.as(who).get(`/streams/${everyone}/email_address`));
    });
  });
}
