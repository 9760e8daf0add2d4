/**
 * State equivalence for subscriptions (issue 5): subscribing and unsubscribing oneself and others,
 * per-user subscription properties and user topics, seen by the subscriber, the other subscribers
 * (peer events), users who merely see the channel and users who must hear nothing (a private
 * channel's outsiders, guests for a public channel they are not in).
 */
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { createChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { MODERN_CAPABILITIES, ensureNotificationBot, verifyAction } from "./verify-action.js";

for (const kind of STORE_KINDS) {
  describe(`state equivalence: subscriptions [${kind}]`, () => {
    let t: TestRealm;
    let veronaId: number;
    before(async () => {
      t = await createTestRealm(kind);
      veronaId = await createChannel(t, "Verona", ["iago", "hamlet"]);
      await createChannel(t, "Secret", ["iago", "hamlet"], { invite_only: true });
      await ensureNotificationBot(t);
    });
    after(() => t.close());

    const subscribe = (who: "othello" | "iago", params: Record<string, unknown>) => () => t.as(who).post("/users/me/subscriptions", params);
    const unsubscribe = (who: "othello" | "iago" | "hamlet", params: Record<string, unknown>) => () => t.as(who).delete("/users/me/subscriptions", params);

    it("subscribing oneself to a public channel: subscription add for the subscriber, peer_add for the others", async () => {
      await verifyAction(t, ["othello", "hamlet", "cordelia", "polonius"], subscribe("othello", { subscriptions: [{ name: "Verona" }] }), {
        expect: { othello: ["subscription/add"], hamlet: ["subscription/peer_add"], cordelia: ["subscription/peer_add"], polonius: [] },
      });
    });

    it("unsubscribing oneself from a public channel keeps it under unsubscribed", async () => {
      await verifyAction(t, ["othello", "hamlet", "polonius"], unsubscribe("othello", { subscriptions: ["Verona"] }), {
        expect: { othello: ["subscription/remove"], hamlet: ["subscription/peer_remove"], polonius: [] },
      });
      await verifyAction(t, ["othello", "hamlet"], subscribe("othello", { subscriptions: [{ name: "Verona" }] }), {
        expect: { othello: ["subscription/add"], hamlet: ["subscription/peer_add"] },
      });
    });

    it("subscribing someone to a private channel: they gain the channel; outsiders hear nothing", async () => {
      await verifyAction(t, ["othello", "hamlet", "cordelia", "desdemona"], subscribe("iago", { subscriptions: [{ name: "Secret" }], principals: [t.users.othello.id] }), {
        expect: { othello: ["stream/create", "subscription/add", "message"], hamlet: ["subscription/peer_add"], cordelia: [], desdemona: ["subscription/peer_add"] },
      });
    });

    it("removing someone from a private channel: they lose it entirely; outsiders hear nothing", async () => {
      await verifyAction(t, ["othello", "hamlet", "cordelia", "desdemona"], unsubscribe("iago", { subscriptions: ["Secret"], principals: [t.users.othello.id] }), {
        expect: { othello: ["subscription/remove", "stream/delete"], hamlet: ["subscription/peer_remove"], cordelia: [], desdemona: ["subscription/peer_remove"] },
      });
    });

    it("subscribing to a channel that does not exist yet creates it", async () => {
      await verifyAction(t, ["othello", "hamlet", "polonius"], subscribe("othello", { subscriptions: [{ name: "Brand new" }] }), {
        expect: { polonius: [] },
      });
      await verifyAction(t, ["othello", "hamlet", "desdemona"], subscribe("othello", { subscriptions: [{ name: "Hush" }], invite_only: true }), {
        expect: { hamlet: [] },
      });
    });

    it("subscription properties: color, muting (and its legacy name), pinning, notifications", async () => {
      const properties = [
        { stream_id: veronaId, property: "color", value: "#ff0000" },
        { stream_id: veronaId, property: "is_muted", value: true },
        { stream_id: veronaId, property: "pin_to_top", value: true },
        { stream_id: veronaId, property: "desktop_notifications", value: false },
      ];
      await verifyAction(t, ["othello", "hamlet"], () => t.as("othello").post("/users/me/subscriptions/properties", { subscription_data: properties }), {
        expect: { hamlet: [] },
      });
      await verifyAction(t, ["othello"], () => t.as("othello").patch(`/users/me/subscriptions/${veronaId}`, { property: "in_home_view", value: "true" }));
    });

    it("without notification_settings_null: register's resolved booleans stay in step with updates", async () => {
      const legacy = { register: { client_capabilities: { ...MODERN_CAPABILITIES, notification_settings_null: false } } };
      const set = (property: string, value: boolean) => () =>
        t.as("othello").post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: veronaId, property, value }] });
      await verifyAction(t, ["othello"], set("push_notifications", false), legacy);
      await verifyAction(t, ["othello"], set("email_notifications", true), legacy);
      await verifyAction(t, ["othello", "hamlet"], unsubscribe("othello", { subscriptions: ["Verona"] }), legacy);
      await t.as("othello").post("/users/me/subscriptions", { subscriptions: [{ name: "Verona" }] });
    });

    it("user topics: mute, follow, unmute; the legacy muted_topics endpoint", async () => {
      const set = (topic: string, visibility_policy: number) => () => t.as("othello").post("/user_topics", { stream_id: veronaId, topic, visibility_policy });
      await verifyAction(t, ["othello", "hamlet"], set("noise", 1), { expect: { hamlet: [] } });
      await verifyAction(t, ["othello"], set("noise", 3));
      await verifyAction(t, ["othello"], set("", 1));
      await verifyAction(t, ["othello"], set("noise", 0));
      await verifyAction(t, ["othello"], () => t.as("othello").patch("/users/me/subscriptions/muted_topics", { stream_id: veronaId, topic: "old api", op: "add" }));
      await verifyAction(t, ["othello"], () => t.as("othello").patch("/users/me/subscriptions/muted_topics", { stream: "Verona", topic: "old api", op: "remove" }));
    });
  });
}
