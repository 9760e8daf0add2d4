/**
 * Attachments (issue 7, item 5): `GET /attachments`, `DELETE /attachments/{id}`, the link a sent
 * message makes to an upload, and the scheduled removal of uploads no message linked.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { deleteUnclaimedAttachments, startUnclaimedAttachmentCleanup } from "../../src/scheduler/attachment-cleanup.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, fetchUrl, uploadFile, type UploadRealm } from "../helpers/uploads.js";

const pathOf = (url: string) => decodeURIComponent(url.slice("/user_uploads/".length));

for (const kind of STORE_KINDS) {
  describe(`attachments [${kind}]`, () => {
    let t: UploadRealm;
    before(async () => {
      t = await createUploadRealm(kind);
    });
    after(() => t.close());
    beforeEach(() => {
      t.published.length = 0;
    });

    const attachmentOf = async (who: "hamlet" | "othello", url: string) => {
      const res = await t.as(who).get("/attachments");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.attachments.find((a: { path_id: string }) => a.path_id === pathOf(url));
    };

    it("lists the user's own uploads with the messages linking them (FL 443: seconds; FL 472: message_ids), and the realm's space used", async () => {
      const { url } = await uploadFile(t, "hamlet", "report final.txt", "twelve bytes");
      t.clock.seconds += 5;
      const sent = await t.as("hamlet").post("/messages", { type: "direct", to: [t.users.othello.id], content: `[report](${url})` });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const res = await t.as("hamlet").get("/attachments");
      const mine = res.body.attachments.find((a: { path_id: string }) => a.path_id === pathOf(url));
      assert.deepEqual(mine, {
        id: mine.id,
        name: "report-final.txt",
        path_id: pathOf(url),
        size: 12,
        create_time: t.clock.seconds - 5,
        message_ids: [sent.body.id],
      });
      assert.equal(res.body.upload_space_used, res.body.attachments.reduce((n: number, a: { size: number }) => n + a.size, 0));
      assert.equal(await attachmentOf("othello", url), undefined, "not listed for the recipient");

      const update = t.published.find((p) => p.event.type === "attachment" && p.event.op === "update");
      assert.ok(update, "the owner hears that a message now links the file");
      assert.deepEqual(update.userIds, [t.users.hamlet.id]);
      assert.deepEqual(update.event.attachment, mine);
    });

    it("links only files the sender may read: a message naming someone else's private upload links nothing", async () => {
      const { url } = await uploadFile(t, "hamlet", "hamlets.txt", "x");
      const sent = await t.as("othello").post("/messages", { type: "direct", to: [t.users.cordelia.id], content: `[x](${url})` });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      assert.deepEqual((await attachmentOf("hamlet", url)).message_ids, []);
      assert.equal((await fetchUrl(t, "cordelia", url)).status, 404);
    });

    it("deletes an own upload: the file, the row, and an event to the owner", async () => {
      const { url } = await uploadFile(t, "othello", "gone.txt", "soon gone");
      const attachment = await attachmentOf("othello", url);
      t.published.length = 0;
      const res = await t.as("othello").delete(`/attachments/${attachment.id}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { result: "success", msg: "" });
      assert.equal(existsSync(join(t.uploadsDir, pathOf(url))), false);
      assert.equal(await attachmentOf("othello", url), undefined);
      assert.equal((await fetchUrl(t, "othello", url)).status, 404);
      const [event] = t.published.filter((p) => p.event.type === "attachment");
      assert.deepEqual(event.userIds, [t.users.othello.id]);
      assert.equal(event.event.op, "remove");
      assert.deepEqual(event.event.attachment, { id: attachment.id });
      assert.equal(typeof event.event.upload_space_used, "number");
    });

    it("refuses to delete someone else's upload or a missing one, with the same error", async () => {
      const { url } = await uploadFile(t, "hamlet", "keep.txt", "keep");
      const attachment = await attachmentOf("hamlet", url);
      t.published.length = 0;
      for (const id of [attachment.id, 999999]) {
        const res = await t.as("iago").delete(`/attachments/${id}`);
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, { result: "error", msg: "Invalid attachment", code: "BAD_REQUEST" });
      }
      assert.equal((await fetchUrl(t, "hamlet", url)).status, 200);
      assert.deepEqual(t.published.filter((p) => p.event.type === "attachment"), []);
    });

    it("deletes a linked upload too; its message stays", async () => {
      const { url } = await uploadFile(t, "hamlet", "linked.txt", "linked");
      const sent = await t.as("hamlet").post("/messages", { type: "direct", to: [t.users.othello.id], content: `[l](${url})` });
      const attachment = await attachmentOf("hamlet", url);
      assert.equal((await t.as("hamlet").delete(`/attachments/${attachment.id}`)).status, 200);
      assert.equal((await t.as("othello").get(`/messages/${sent.body.id}`)).status, 200);
      assert.equal((await fetchUrl(t, "othello", url)).status, 404);
    });
  });

  describe(`unclaimed upload cleanup [${kind}]`, () => {
    let t: UploadRealm;
    before(async () => {
      t = await createUploadRealm(kind);
    });
    after(() => t.close());

    it("removes only uploads no message links that are older than the grace period", async () => {
      const old = await uploadFile(t, "hamlet", "old.txt", "old");
      const oldLinked = await uploadFile(t, "hamlet", "old-linked.txt", "old but linked");
      await t.as("hamlet").post("/messages", { type: "direct", to: [t.users.othello.id], content: `[x](${oldLinked.url})` });
      t.clock.seconds += 71 * 3600;
      const fresh = await uploadFile(t, "hamlet", "fresh.txt", "fresh");
      assert.equal(await deleteUnclaimedAttachments(t.deps), 0, "nothing is past 72 hours yet");
      t.clock.seconds += 2 * 3600;
      t.published.length = 0;
      assert.equal(await deleteUnclaimedAttachments(t.deps), 1);
      assert.equal(existsSync(join(t.uploadsDir, pathOf(old.url))), false);
      assert.equal((await fetchUrl(t, "hamlet", old.url)).status, 404);
      assert.equal((await fetchUrl(t, "hamlet", oldLinked.url)).status, 200);
      assert.equal((await fetchUrl(t, "hamlet", fresh.url)).status, 200);
      const removals = t.published.filter((p) => p.event.type === "attachment" && p.event.op === "remove");
      assert.deepEqual(removals.map((p) => p.userIds), [[t.users.hamlet.id]]);
      assert.equal(await deleteUnclaimedAttachments(t.deps, 1), 1, "a shorter grace period catches the fresh one");
    });

    it("runs from a timer that can be stopped", async () => {
      const stale = await uploadFile(t, "othello", "stale.txt", "stale");
      t.clock.seconds += 100 * 3600;
      const errors: unknown[] = [];
      const stop = startUnclaimedAttachmentCleanup(t.deps, { intervalMs: 10, onError: (e) => errors.push(e) });
      try {
        for (let i = 0; i < 100 && existsSync(join(t.uploadsDir, pathOf(stale.url))); i++) await new Promise((r) => setTimeout(r, 10));
      } finally {
        stop();
      }
      assert.equal(existsSync(join(t.uploadsDir, pathOf(stale.url))), false);
      assert.deepEqual(errors, []);
    });
  });
}
