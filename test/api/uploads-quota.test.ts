/**
 * The realm upload quota (Zulip's upload_quota_mib; REALM_UPLOAD_QUOTA, zulip-facts section e):
 * `realm_upload_quota_mib` in /register, and refusal of uploads that would take the realm's files
 * past it, on `POST /user_uploads` and on the tus endpoint (at creation and at the last byte).
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { basicAuth } from "../helpers/http.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, uploadParts, type UploadRealm } from "../helpers/uploads.js";

const KiB = 1024;
const QUOTA_ERROR = { result: "error", msg: "Upload would exceed your organization's upload quota.", code: "REALM_UPLOAD_QUOTA" };

for (const kind of STORE_KINDS) {
  describe(`realm upload quota [${kind}]`, () => {
    let t: UploadRealm;
    before(async () => {
      t = await createUploadRealm(kind, { uploadQuotaMib: 1 });
    });
    after(() => t.close());

    const upload = (name: string, size: number) => uploadParts(t, "hamlet", [{ filename: name, content: Buffer.alloc(size, 1) }]);
    const attachments = async () => (await t.as("hamlet").get("/attachments")).body as { attachments: Array<{ id: number; name: string }>; upload_space_used: number };
    const deleteAll = async () => {
      for (const a of (await attachments()).attachments) assert.equal((await t.as("hamlet").delete(`/attachments/${a.id}`)).status, 200);
    };
    const tus = (method: string, url: string, headers: Record<string, string>, payload?: Buffer) =>
      t.app.inject({ method: method as "POST", url, headers: { host: t.host, authorization: basicAuth(t.users.hamlet), "tus-resumable": "1.0.0", ...headers }, payload });
    const createTus = (length: number) => tus("POST", "/api/v1/tus", { "upload-length": String(length), "upload-metadata": `filename ${Buffer.from("big.bin").toString("base64")}` });
    const finishTus = (location: string, length: number) =>
      tus("PATCH", location, { "content-type": "application/offset+octet-stream", "upload-offset": "0" }, Buffer.alloc(length, 2));

    it("reports the quota in /register, and none by default", async () => {
      const res = await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] });
      assert.equal(res.body.realm_upload_quota_mib, 1);
      t.deps.config.uploadQuotaMib = null;
      try {
        assert.equal((await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body.realm_upload_quota_mib, null);
        assert.equal((await upload("a.bin", 2 * 1024 * KiB)).status, 200);
      } finally {
        t.deps.config.uploadQuotaMib = 1;
      }
      await deleteAll();
    });

    it("accepts uploads up to the quota exactly, and refuses the byte past it without keeping the file", async () => {
      assert.equal((await upload("first.bin", 600 * KiB)).status, 200);
      const over = await upload("second.bin", 424 * KiB + 1);
      assert.deepEqual([over.status, over.json()], [400, QUOTA_ERROR]);
      assert.deepEqual((await attachments()).attachments.map((a) => a.name), ["first.bin"]);
      assert.equal((await upload("exact.bin", 424 * KiB)).status, 200);
      assert.equal((await attachments()).upload_space_used, 1024 * KiB);
      assert.equal((await upload("empty.bin", 0)).status, 200, "an empty file still fits");
      assert.deepEqual((await upload("one.bin", 1)).json(), QUOTA_ERROR);
      await deleteAll();
      assert.equal((await upload("again.bin", 600 * KiB)).status, 200, "deleting files frees the quota");
      await deleteAll();
    });

    it("lets only as many concurrent uploads through as fit", async () => {
      const results = await Promise.all([upload("a.bin", 400 * KiB), upload("b.bin", 400 * KiB), upload("c.bin", 400 * KiB)]);
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 200, 400]);
      assert.equal((await attachments()).upload_space_used, 800 * KiB);
      await deleteAll();
    });

    it("refuses a tus upload that would not fit at creation, with 413", async () => {
      const refused = await createTus(1024 * KiB + 1);
      assert.deepEqual([refused.statusCode, refused.json()], [413, QUOTA_ERROR]);
      const created = await createTus(1024 * KiB);
      assert.equal(created.statusCode, 201, created.body);
      const finished = await finishTus(String(created.headers.location), 1024 * KiB);
      assert.equal(finished.statusCode, 200, finished.body);
      assert.match(finished.json().url, /\/big\.bin$/);
      await deleteAll();
    });

    it("reserves an unfinished tus upload's size, and checks again when it finishes", async () => {
      const first = await createTus(700 * KiB);
      assert.equal(first.statusCode, 201);
      // The first one's 700 KiB are held from its creation (issue 16, F11).
      const second = await createTus(700 * KiB);
      assert.deepEqual([second.statusCode, second.json()], [413, QUOTA_ERROR]);
      // Space taken meanwhile by another way in is found when the upload finishes.
      assert.equal((await upload("meanwhile.bin", 700 * KiB)).status, 200);
      const late = await finishTus(String(first.headers.location), 700 * KiB);
      assert.deepEqual([late.statusCode, late.json()], [400, QUOTA_ERROR]);
      assert.equal((await attachments()).attachments.length, 1);
      assert.deepEqual(readdirSync(join(t.uploadsDir, ".tus")).filter((f) => !f.endsWith(".lock")), [], "the refused upload's bytes are gone");
      await deleteAll();
    });
  });
}
