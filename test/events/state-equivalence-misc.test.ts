/**
 * State equivalence for the remaining mutations (issue 5): the combined subscription update,
 * removing a default channel, managing invitations, joining through an invitation (a new account
 * with its channels and groups) and regenerating one's API key (no state).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createMailRealm, joinPath, mailsTo, postForm, type MailRealm } from "../helpers/invites.js";
import { createChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { ensureNotificationBot, verifyAction } from "./verify-action.js";

for (const kind of STORE_KINDS) {
  describe(`state equivalence: other mutations [${kind}]`, () => {
    let t: MailRealm;
    let lobbyId: number;
    before(async () => {
      t = await createMailRealm(kind);
      await createChannel(t, "Verona", ["iago", "hamlet"]);
      lobbyId = await createChannel(t, "Lobby", ["iago"]);
      await ensureNotificationBot(t);
    });
    after(() => t.close());

    it("subscribing to one channel and leaving another in one request", async () => {
      await t.as("othello").post("/users/me/subscriptions", { subscriptions: [{ name: "Lobby" }] });
      const update = () => t.as("othello").patch("/users/me/subscriptions", { add: [{ name: "Verona" }], delete: ["Lobby"] });
      await verifyAction(t, ["othello", "hamlet", "iago", "polonius"], update, {
        expect: { othello: ["subscription/add", "subscription/remove"], hamlet: ["subscription/peer_add", "subscription/peer_remove"], polonius: [] },
      });
    });

    it("removing a default channel", async () => {
      await t.as("iago").post("/default_streams", { stream_id: lobbyId });
      await verifyAction(t, ["hamlet", "polonius"], () => t.as("iago").delete("/default_streams", { stream_id: lobbyId }), { expect: { hamlet: ["default_streams"], polonius: [] } });
    });

    it("resending and revoking invitations tell only those who manage them", async () => {
      await t.as("iago").post("/invites", { invitee_emails: "later@example.com", stream_ids: [] });
      const invite = (await t.as("iago").get("/invites")).body.invites.find((i: { email?: string }) => i.email === "later@example.com");
      await verifyAction(t, ["iago", "hamlet"], () => t.as("iago").post(`/invites/${invite.id}/resend`), { expect: { hamlet: [] } });
      const link = await t.as("iago").post("/invites/multiuse", { stream_ids: [] });
      const multiuse = (await t.as("iago").get("/invites")).body.invites.find((i: { is_multiuse: boolean }) => i.is_multiuse);
      assert.equal(link.status, 200, JSON.stringify(link.body));
      await verifyAction(t, ["iago", "hamlet"], () => t.as("iago").delete(`/invites/multiuse/${multiuse.id}`), { expect: { iago: ["invites_changed"], hamlet: [] } });
    });

    it("joining through an invitation: everyone learns of the account; peers of its channels learn of the subscription", async () => {
      const sent = await t.as("iago").post("/invites", { invitee_emails: "newbie@example.com", stream_ids: [lobbyId] });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const path = joinPath(mailsTo(t, "newbie@example.com").at(-1)!);
      const join = async () => {
        const page = await postForm(t, path, { full_name: "New Person", password: "a new secret password" });
        assert.ok(page.status < 400, `join failed: ${page.status} ${page.body}`);
        return { status: 200, body: {}, headers: {} };
      };
      const events = await verifyAction(t, ["iago", "hamlet", "polonius"], join);
      assert.ok(events.hamlet.some((e) => e.type === "realm_user" && e.op === "add"));
      assert.ok(!events.polonius.some((e) => e.type === "subscription"), "a guest outside the channel hears of no subscriber");
    });

    it("regenerating one's API key changes no client state", async () => {
      const regenerate = async () => {
        const res = await t.as("othello").post("/users/me/api_key/regenerate");
        t.users.othello.apiKey = res.body.api_key;
        return res;
      };
      await verifyAction(t, ["hamlet"], regenerate, { expect: { hamlet: [] } });
    });
  });
}
