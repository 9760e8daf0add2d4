/**
 * Welcome Bot (issue 17): a new person's first direct messages (the introduction, then the
 * organization's custom text), the realm setting welcome_message_custom_text, and
 * POST /realm/test_welcome_bot_custom_message for administrators.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { WELCOME_BOT_EMAIL } from "../../src/policy/system-bots.js";
import { eventsOf } from "../helpers/channels.js";
import { createMailRealm, joinPath, mailsTo, postForm, type MailRealm } from "../helpers/invites.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

interface Sent {
  sender_id: number;
  sender_email: string;
  content: string;
  id: number;
}

for (const kind of STORE_KINDS) {
  describe(`Welcome Bot [${kind}]`, () => {
    let t: MailRealm;
    beforeEach(async () => {
      t = await createMailRealm(kind);
    });
    afterEach(() => t.close());

    const messagesTo = (userId: number): Sent[] =>
      eventsOf(t, "message").filter((e) => e.userIds.includes(userId)).map((e) => e.event.message as Sent);

    async function joinByInvite(params: Record<string, unknown> = {}): Promise<number> {
      const email = `new${Math.random().toString(36).slice(2, 8)}@example.com`;
      assert.equal((await t.as("iago").post("/invites", { invitee_emails: email, stream_ids: [], notify_referrer_on_join: false, ...params })).status, 200);
      assert.equal((await postForm(t, joinPath(mailsTo(t, email).at(-1)!), { full_name: "New Person", password: "a long password" })).status, 200);
      return (await t.as(null).post("/fetch_api_key", { username: email, password: "a long password" })).body.user_id as number;
    }

    it("greets a new person with the introduction, then the organization's text from the realm setting", async () => {
      const set = await t.as("desdemona").patch("/realm", { welcome_message_custom_text: "Read the **rules** first." });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      const state = await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] });
      assert.equal(state.body.realm_welcome_message_custom_text, "Read the **rules** first.");
      t.published.length = 0;
      const id = await joinByInvite();
      const got = messagesTo(id);
      assert.deepEqual(got.map((m) => m.sender_email), [WELCOME_BOT_EMAIL, WELCOME_BOT_EMAIL]);
      assert.match(got[0].content, /Welcome Bot/);
      assert.match(got[1].content, /Read the <strong>rules<\/strong> first\./);
    });

    it("answers replies to its direct messages: the words it knows, else its default answer; not in group conversations", async () => {
      const id = await joinByInvite();
      const botId = messagesTo(id)[0].sender_id;
      const newcomer = (await t.deps.store.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow());
      const as = t.as({ id, email: newcomer.email, apiKey: newcomer.api_key, fullName: newcomer.full_name, role: newcomer.role });
      const ask = async (content: string, to: number[] = [botId]) => {
        t.published.length = 0;
        const sent = await as.post("/messages", { type: "direct", to: JSON.stringify(to), content });
        assert.equal(sent.status, 200, JSON.stringify(sent.body));
        return messagesTo(id).filter((m) => m.sender_id === botId);
      };
      const apps = await ask("apps");
      assert.equal(apps.length, 1);
      assert.match(apps[0].content, /\/apps\//);
      assert.match((await ask("  Theme "))[0].content, /#settings\/preferences/);
      assert.match((await ask("channels"))[0].content, /#channels\/all/);
      assert.match((await ask("keyboard shortcuts"))[0].content, /help\/keyboard-shortcuts/);
      const other = await ask("what is the meaning of life?");
      assert.equal(other.length, 1);
      assert.match(other[0].content, /only a bot/);
      // The answer goes to the conversation with the sender, and is read back like any message.
      const fetched = await as.get(`/messages/${other[0].id}`);
      assert.deepEqual((fetched.body.message.display_recipient as Array<{ id: number }>).map((r) => r.id).sort((a, b) => a - b), [botId, id].sort((a, b) => a - b));
      // A group conversation that includes Welcome Bot gets no answer, nor does a message to someone else.
      assert.deepEqual(await ask("apps", [botId, t.users.hamlet.id]), []);
      assert.deepEqual(await ask("apps", [t.users.hamlet.id]), []);
    });

    it("uses an invitation's own text, and sends only the introduction when the text is empty", async () => {
      await t.as("desdemona").patch("/realm", { welcome_message_custom_text: "Realm text" });
      t.published.length = 0;
      const own = await joinByInvite({ welcome_message_custom_text: "Invitation text" });
      assert.match(messagesTo(own)[1].content, /Invitation text/);
      t.published.length = 0;
      const none = await joinByInvite({ welcome_message_custom_text: "" });
      assert.equal(messagesTo(none).length, 1);
    });

    it("greets accounts that administrators create, administrators with the organization guide", async () => {
      t.published.length = 0;
      const made = await t.as("iago").post("/users", { email: "made@zulip.test", password: "a long password", full_name: "Made" });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const got = messagesTo(made.body.user_id);
      assert.equal(got.length, 1);
      assert.doesNotMatch(got[0].content, /getting-your-organization-started/);
    });

    it("sends an administrator the custom message alone as a test", async () => {
      t.published.length = 0;
      const res = await t.as("iago").post("/realm/test_welcome_bot_custom_message", { welcome_message_custom_text: "Be kind." });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const got = messagesTo(t.users.iago.id);
      assert.equal(got.length, 1);
      assert.equal(got[0].id, res.body.message_id);
      assert.equal(got[0].sender_email, WELCOME_BOT_EMAIL);
      assert.match(got[0].content, /Be kind\./);
      const fetched = await t.as("iago").get(`/messages/${res.body.message_id}`);
      assert.equal(fetched.body.message.sender_email, WELCOME_BOT_EMAIL);
    });

    it("refuses an empty or too long text, and anyone but administrators", async () => {
      assertError(await t.as("iago").post("/realm/test_welcome_bot_custom_message", { welcome_message_custom_text: "" }), "Message must not be empty");
      assertError(
        await t.as("iago").post("/realm/test_welcome_bot_custom_message", { welcome_message_custom_text: "x".repeat(8001) }),
        "welcome_message_custom_text is too long (limit: 8000 characters)",
        "REQUEST_VARIABLE_INVALID",
      );
      assertError(await t.as("iago").post("/realm/test_welcome_bot_custom_message", {}), "Missing 'welcome_message_custom_text' argument", "REQUEST_VARIABLE_MISSING");
      await checkPermissions(["desdemona", "iago"], (who) => t.as(who).post("/realm/test_welcome_bot_custom_message", { welcome_message_custom_text: "Hello" }));
      assertError(await t.as("iago").patch("/realm", { welcome_message_custom_text: "y".repeat(8001) }), "welcome_message_custom_text is too long (limit: 8000 characters)", "REQUEST_VARIABLE_INVALID");
    });
  });
}
