/**
 * State equivalence for organization data and personal lists (issue 5): custom profile fields and
 * values, linkifiers, custom emoji, drafts, alert words, invitations and uploaded files. Realm
 * data reaches everyone; drafts, alert words and attachments only their owner; invites_changed
 * only those who can manage invitations.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { basicAuth } from "../helpers/http.js";
import { createChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, multipartBody, uploadFile, type UploadRealm } from "../helpers/uploads.js";
import { verifyAction } from "./verify-action.js";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

for (const kind of STORE_KINDS) {
  describe(`state equivalence: organization data and personal lists [${kind}]`, () => {
    let t: UploadRealm;
    let channelId: number;
    before(async () => {
      t = await createUploadRealm(kind);
      channelId = await createChannel(t, "Verona", ["hamlet"]);
    });
    after(() => t.close());

    it("custom profile fields: create, edit, reorder, values, delete", async () => {
      const create = () => t.as("iago").post("/realm/profile_fields", { name: "Bio", field_type: 2, hint: "about you" });
      const events = await verifyAction(t, ["hamlet", "polonius"], create, { expect: { polonius: ["custom_profile_fields"] } });
      const fieldId = (events.hamlet[0].fields as Array<{ id: number; name: string }>).find((f) => f.name === "Bio")!.id;
      const other = (await t.as("iago").post("/realm/profile_fields", { name: "Team", field_type: 1 })).body.id;
      await verifyAction(t, ["hamlet"], () => t.as("iago").patch(`/realm/profile_fields/${fieldId}`, { name: "About" }));
      await verifyAction(t, ["hamlet"], () => t.as("iago").patch(`/realm/profile_fields/${other}`, { display_in_profile_summary: true }));
      await verifyAction(t, ["hamlet"], () => t.as("iago").patch("/realm/profile_fields", { order: [other, fieldId] }));
      await verifyAction(t, ["hamlet", "othello"], () => t.as("hamlet").patch("/users/me/profile_data", { data: [{ id: fieldId, value: "**bold** claims" }] }), {
        expect: { othello: ["realm_user/update"] },
      });
      await verifyAction(t, ["hamlet", "othello"], () => t.as("iago").patch(`/users/${t.users.othello.id}`, { profile_data: [{ id: other, value: "Venice" }] }));
      await verifyAction(t, ["hamlet", "othello"], () => t.as("hamlet").delete("/users/me/profile_data", { data: [fieldId] }));
      await verifyAction(t, ["hamlet", "othello"], () => t.as("iago").delete(`/realm/profile_fields/${other}`));
    });

    it("linkifiers: add, edit, reorder, remove", async () => {
      const add = () => t.as("iago").post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/{id}" });
      const events = await verifyAction(t, ["hamlet", "polonius"], add, { expect: { polonius: ["realm_linkifiers"] } });
      const first = (events.hamlet[0].realm_linkifiers as Array<{ id: number }>)[0].id;
      const second = (await t.as("iago").post("/realm/filters", { pattern: "GH-(?P<n>[0-9]+)", url_template: "https://github.com/x/{n}" })).body.id;
      await verifyAction(t, ["hamlet"], () => t.as("iago").patch(`/realm/filters/${first}`, { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.org/{id}" }));
      await verifyAction(t, ["hamlet"], () => t.as("iago").patch("/realm/linkifiers", { ordered_linkifier_ids: [second, first] }));
      await verifyAction(t, ["hamlet"], () => t.as("iago").delete(`/realm/filters/${first}`));
    });

    it("custom emoji: add and deactivate", async () => {
      const upload = async () => {
        const { payload, contentType } = multipartBody([{ filename: "img.png", content: PNG, contentType: "image/png" }]);
        const res = await t.app.inject({
          method: "POST",
          url: "/api/v1/realm/emoji/green_tick",
          headers: { host: t.host, authorization: basicAuth(t.users.hamlet), "content-type": contentType },
          payload,
        });
        return { status: res.statusCode, body: res.json(), headers: res.headers };
      };
      await verifyAction(t, ["hamlet", "polonius"], upload, { expect: { polonius: ["realm_emoji/update"] } });
      await verifyAction(t, ["hamlet", "polonius"], () => t.as("iago").delete("/realm/emoji/green_tick"));
    });

    it("drafts reach only their owner", async () => {
      const draft = { type: "stream", to: [channelId], topic: "ideas", content: "half a thought", timestamp: 1_700_000_000 };
      const events = await verifyAction(t, ["hamlet", "othello"], () => t.as("hamlet").post("/drafts", { drafts: [draft] }), { expect: { hamlet: ["drafts/add"], othello: [] } });
      const id = events.hamlet[0].drafts[0].id as number;
      await verifyAction(t, ["hamlet"], () => t.as("hamlet").patch(`/drafts/${id}`, { draft: { ...draft, content: "a whole thought" } }));
      await verifyAction(t, ["hamlet"], () => t.as("hamlet").delete(`/drafts/${id}`));
    });

    it("alert words reach only their owner", async () => {
      await verifyAction(t, ["hamlet", "othello"], () => t.as("hamlet").post("/users/me/alert_words", { alert_words: ["ghost", "castle"] }), {
        expect: { hamlet: ["alert_words"], othello: [] },
      });
      await verifyAction(t, ["hamlet"], () => t.as("hamlet").delete("/users/me/alert_words", { alert_words: ["ghost"] }));
    });

    it("invitations: invites_changed reaches those who manage invitations, not other members", async () => {
      const invite = () => t.as("iago").post("/invites", { invitee_emails: "guest1@example.com", stream_ids: [] });
      await verifyAction(t, ["iago", "desdemona", "cordelia", "polonius"], invite, { expect: { iago: ["invites_changed"], desdemona: ["invites_changed"], cordelia: [], polonius: [] } });
      const listed = await t.as("iago").get("/invites");
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      const inviteId = listed.body.invites[0].id as number;
      await verifyAction(t, ["iago", "cordelia"], () => t.as("iago").delete(`/invites/${inviteId}`), { expect: { iago: ["invites_changed"], cordelia: [] } });
      await verifyAction(t, ["iago", "cordelia"], () => t.as("iago").post("/invites/multiuse", { stream_ids: [] }), { expect: { cordelia: [] } });
    });

    it("uploaded files: attachment events reach only their owner", async () => {
      const upload = async () => ({ status: 200, body: await uploadFile(t, "hamlet", "notes.txt", "hello"), headers: {} });
      await verifyAction(t, ["hamlet", "othello"], upload, { expect: { hamlet: ["attachment/add"], othello: [] } });
      const attachments = (await t.as("hamlet").get("/attachments")).body.attachments as Array<{ id: number }>;
      await verifyAction(t, ["hamlet", "othello"], () => t.as("hamlet").delete(`/attachments/${attachments[0].id}`), { expect: { hamlet: ["attachment/remove"], othello: [] } });
    });
  });
}
