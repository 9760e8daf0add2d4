/**
 * Zulip's check-thumbnail-status (FL 479), on every store: true once an uploaded image has its
 * thumbnails, false for files that get none, and the file's own not-found error for files the
 * caller may not read or that do not exist.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { pngImage } from "../helpers/images.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, uploadFile, type UploadRealm } from "../helpers/uploads.js";

for (const kind of STORE_KINDS) {
  describe(`thumbnail status [${kind}]`, () => {
    let t: UploadRealm;
    before(async () => {
      t = await createUploadRealm(kind);
    });
    after(() => t.close());

    const status = (who: "hamlet" | "othello", url: string) => t.as(who).get(`/thumbnail/status/${url.slice("/user_uploads/".length)}`);

    it("answers has_thumbnail for an image with thumbnails and for a file without", async () => {
      const image = await uploadFile(t, "hamlet", "cat.png", await pngImage(1200, 800), "image/png");
      assert.deepEqual((await status("hamlet", image.url)).body, { result: "success", msg: "", has_thumbnail: true });
      const text = await uploadFile(t, "hamlet", "notes.txt", "just text");
      assert.deepEqual((await status("hamlet", text.url)).body, { result: "success", msg: "", has_thumbnail: false });
    });

    it("refuses files the caller may not read, other realms' paths and missing files alike", async () => {
      const { url } = await uploadFile(t, "hamlet", "private.png", await pngImage(100, 100), "image/png");
      assertError(await status("othello", url), "File not found", "BAD_REQUEST", 404);
      const path = url.slice("/user_uploads/".length);
      assertError(await t.as("hamlet").get(`/thumbnail/status/${Number(t.realmId) + 1}/${path.split("/").slice(1).join("/")}`), "File not found", "BAD_REQUEST", 404);
      assertError(await t.as("hamlet").get(`/thumbnail/status/${t.realmId}/AAAAAAAAAAAAAAAAAAAAAAAA/none.png`), "File not found", "BAD_REQUEST", 404);
    });

    it("is open to every account that can read the file", async () => {
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], async (who) => {
        const { url } = await uploadFile(t, who, "own.txt", "x");
        return t.as(who).get(`/thumbnail/status/${url.slice("/user_uploads/".length)}`);
      });
    });
  });
}
