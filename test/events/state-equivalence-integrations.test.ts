/**
 * State equivalence for integrations (issue 17): code playgrounds (realm_playgrounds), allowed
 * domains (realm_domains add/change/remove, and the realm update when the last one goes) and a
 * bot's regenerated API key (realm_bot update to its owner and the administrators), the realm's
 * Welcome Bot text (realm update) and Welcome Bot's test message (a direct message to the caller).
 */
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { ensureNotificationBot, verifyAction } from "./verify-action.js";

for (const kind of STORE_KINDS) {
  describe(`state equivalence: integrations [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
      await ensureNotificationBot(t);
    });
    after(() => t.close());

    it("code playgrounds: add and remove reach everyone", async () => {
      const add = () => t.as("iago").post("/realm/playgrounds", { name: "Python playground", pygments_language: "Python", url_template: "https://python.example.com?code={code}" });
      const events = await verifyAction(t, ["hamlet", "polonius"], add, { expect: { hamlet: ["realm_playgrounds"], polonius: ["realm_playgrounds"] } });
      const id = (events.hamlet[0].realm_playgrounds as Array<{ id: number }>)[0].id;
      await t.as("iago").post("/realm/playgrounds", { name: "Rust", pygments_language: "Rust", url_template: "https://play.rust.example/?code={code}" });
      await verifyAction(t, ["hamlet"], () => t.as("iago").delete(`/realm/playgrounds/${id}`), { expect: { hamlet: ["realm_playgrounds"] } });
    });

    it("allowed domains: add, change, remove, and the restriction lifted with the last one", async () => {
      await verifyAction(t, ["hamlet", "polonius"], () => t.as("desdemona").post("/realm/domains", { domain: "example.com", allow_subdomains: false }), {
        expect: { hamlet: ["realm_domains/add"], polonius: ["realm_domains/add"] },
      });
      await t.as("desdemona").post("/realm/domains", { domain: "example.org", allow_subdomains: true });
      await verifyAction(t, ["hamlet"], () => t.as("desdemona").patch("/realm/domains/example.com", { allow_subdomains: true }), { expect: { hamlet: ["realm_domains/change"] } });
      await verifyAction(t, ["hamlet"], () => t.as("desdemona").delete("/realm/domains/example.org"), { expect: { hamlet: ["realm_domains/remove"] } });
      await t.as("desdemona").patch("/realm", { emails_restricted_to_domains: true });
      await verifyAction(t, ["hamlet"], () => t.as("desdemona").delete("/realm/domains/example.com"), { expect: { hamlet: ["realm_domains/remove", "realm/update"] } });
    });

    it("Welcome Bot: the realm's custom text and the test message", async () => {
      await verifyAction(t, ["hamlet", "polonius"], () => t.as("iago").patch("/realm", { welcome_message_custom_text: "Be kind." }), {
        expect: { hamlet: ["realm/update"], polonius: ["realm/update"] },
      });
      await verifyAction(t, ["iago", "hamlet"], () => t.as("iago").post("/realm/test_welcome_bot_custom_message", { welcome_message_custom_text: "Be kind." }), {
        expect: { iago: ["message"], hamlet: [] },
      });
    });

    it("a bot's regenerated API key reaches its owner and the administrators only", async () => {
      const bot = await t.as("hamlet").post("/bots", { full_name: "Key bot", short_name: "keybot" });
      const regenerate = () => t.as("hamlet").post(`/bots/${bot.body.user_id}/api_key/regenerate`);
      await verifyAction(t, ["hamlet", "iago", "othello"], regenerate, { expect: { hamlet: ["realm_bot/update"], iago: ["realm_bot/update"], othello: [] } });
    });
  });
}
