/**
 * Thumbnails of uploaded images (issue 7; Zulip feature level 273): which uploads get them and in
 * which formats, the rendered preview that links them, serving them under the original's access
 * rules, `server_thumbnail_formats` in /register, removal with the attachment, and the files that
 * must get none (not an image, a corrupt image, a decompression bomb).
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { deleteUnclaimedAttachments } from "../../src/scheduler/attachment-cleanup.js";
import { formEncode, PASSWORD } from "../helpers/fixtures.js";
import { basicAuth } from "../helpers/http.js";
import { animatedGif, bombPng, describeImage, pngImage, rotatedJpeg, tiffImage, truncatedPng, webpImage } from "../helpers/images.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, fetchUrl, uploadFile, type UploadRealm } from "../helpers/uploads.js";

const pathOf = (url: string) => url.slice("/user_uploads/".length);
const thumbnailUrl = (url: string, format: string) => `/user_uploads/thumbnail/${pathOf(url)}/${format}`;

for (const kind of STORE_KINDS) {
  describe(`thumbnails of uploaded images [${kind}]`, () => {
    let t: UploadRealm;
    let missing: { status: number; body: string };
    before(async () => {
      t = await createUploadRealm(kind);
      const r = await fetchUrl(t, "hamlet", `/user_uploads/thumbnail/${t.realmId}/AAAAAAAAAAAAAAAAAAAAAAAA/none.png/840x560.webp`);
      missing = { status: r.status, body: r.body };
    });
    after(() => t.close());

    const render = async (content: string): Promise<string> => {
      const res = await t.as("hamlet").post("/messages/render", { content });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.rendered as string;
    };
    const thumbnail = async (url: string, format: string) => {
      const res = await fetchUrl(t, "hamlet", thumbnailUrl(url, format));
      assert.equal(res.status, 200, `${format}: ${res.body}`);
      return { res, image: await describeImage(res.rawPayload) };
    };
    const assertHidden = async (who: "othello" | "hamlet", url: string) => {
      const res = await fetchUrl(t, who, url);
      assert.deepEqual({ status: res.status, body: res.body }, missing, url);
    };
    const thumbnailFiles = () => (existsSync(join(t.uploadsDir, "thumbnail")) ? readdirSync(join(t.uploadsDir, "thumbnail"), { recursive: true }) : []);

    it("fits a PNG into 840x560 and previews its link exactly as Zulip renders it", async () => {
      const { url } = await uploadFile(t, "hamlet", "cat.png", await pngImage(1200, 800), "image/png");
      const { res, image } = await thumbnail(url, "840x560.webp");
      assert.deepEqual(image, { format: "webp", width: 840, height: 560, pages: 1 });
      assert.equal(res.headers["content-type"], "image/webp");
      assert.match(String(res.headers["content-disposition"]), /^inline; filename="840x560.webp"/);
      assert.equal(res.headers["x-content-type-options"], "nosniff");
      assert.equal(res.headers["content-security-policy"], "default-src 'none'");
      assert.equal(
        await render(`[cat.png](${url})`),
        `<p><a href="${url}">cat.png</a></p>\n` +
          `<div class="message_inline_image"><a href="${url}" title="cat.png">` +
          `<img data-original-content-type="image/png" data-original-dimensions="1200x800" src="${thumbnailUrl(url, "840x560.webp")}"></a></div>`,
      );
    });

    it("measures and thumbnails a sideways JPEG upright, and never enlarges", async () => {
      const { url } = await uploadFile(t, "hamlet", "photo.jpg", await rotatedJpeg(300, 200), "image/jpeg");
      assert.deepEqual((await thumbnail(url, "840x560.webp")).image, { format: "webp", width: 200, height: 300, pages: 1 });
      assert.match(await render(`[photo](${url})`), /data-original-content-type="image\/jpeg" data-original-dimensions="200x300"/);
    });

    it("keeps an animated GIF's frames in its -anim thumbnail, and links that one", async () => {
      const { url } = await uploadFile(t, "hamlet", "wave.gif", await animatedGif(100, 60, 3), "image/gif");
      assert.deepEqual((await thumbnail(url, "840x560-anim.webp")).image, { format: "webp", width: 100, height: 60, pages: 3 });
      assert.deepEqual((await thumbnail(url, "840x560.webp")).image, { format: "webp", width: 100, height: 60, pages: 1 });
      assert.match(
        await render(`[wave](${url})`),
        new RegExp(`<img data-animated="true" data-original-content-type="image/gif" data-original-dimensions="100x60" src="${thumbnailUrl(url, "840x560-anim.webp")}">`),
      );
    });

    it("thumbnails a WebP", async () => {
      const { url } = await uploadFile(t, "hamlet", "tiny.webp", await webpImage(64, 48), "image/webp");
      assert.deepEqual((await thumbnail(url, "840x560.webp")).image, { format: "webp", width: 64, height: 48, pages: 1 });
    });

    it("adds a full-size transcoded still for a TIFF, which browsers cannot show", async () => {
      const { url } = await uploadFile(t, "hamlet", "scan.tiff", await tiffImage(400, 300), "image/tiff");
      assert.deepEqual((await thumbnail(url, "4032x3024.webp")).image, { format: "webp", width: 400, height: 300, pages: 1 });
      assert.match(await render(`[scan](${url})`), /data-original-dimensions="400x300" data-transcoded-image="4032x3024.webp" src=/);
      assert.match(String((await fetchUrl(t, "hamlet", url)).headers["content-disposition"]), /^attachment;/);
    });

    it("gives a non-image, a corrupt image and a decompression bomb no thumbnail and no preview, but keeps the upload", async () => {
      const before = thumbnailFiles().length;
      const cases: Array<[string, Buffer]> = [
        ["text.png", Buffer.from("this is not a picture")],
        ["broken.png", await truncatedPng()],
        ["bomb.png", bombPng(100_000)],
      ];
      for (const [name, data] of cases) {
        const { url } = await uploadFile(t, "hamlet", name, data, "image/png");
        assert.equal((await fetchUrl(t, "hamlet", url)).rawPayload.length, data.length, name);
        assert.equal(await render(`[${name}](${url})`), `<p><a href="${url}">${name}</a></p>`, name);
        await assertHidden("hamlet", thumbnailUrl(url, "840x560.webp"));
      }
      assert.equal(thumbnailFiles().length, before, "nothing half-written is left behind");
    });

    it("serves thumbnails only to those who may read the original, by Basic auth or session", async () => {
      const { url } = await uploadFile(t, "hamlet", "shared.png", await pngImage(90, 60), "image/png");
      const thumb = thumbnailUrl(url, "840x560.webp");
      await assertHidden("othello", thumb);
      assert.equal((await fetchUrl(t, null, thumb)).status, 401);
      const sent = await t.as("hamlet").post("/messages", { type: "direct", to: [t.users.othello.id], content: `[shared.png](${url})` });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const message = await t.as("othello").get(`/messages/${sent.body.id}`);
      assert.match(message.body.message.content, new RegExp(`src="${thumb}"`));
      assert.equal((await fetchUrl(t, "othello", thumb)).status, 200);
      const login = await t.app.inject({
        method: "POST",
        url: "/accounts/login/",
        headers: { host: t.host, "content-type": "application/x-www-form-urlencoded" },
        payload: formEncode({ username: "othello@zulip.test", password: PASSWORD }),
      });
      const cookie = String(login.headers["set-cookie"]).split(";")[0];
      const viaCookie = await fetchUrl(t, null, thumb, { cookie });
      assert.deepEqual([viaCookie.status, viaCookie.headers["content-type"]], [200, "image/webp"]);
    });

    it("serves the closest thumbnail for another format name, and nothing for a name that is no format", async () => {
      const { url } = await uploadFile(t, "hamlet", "still.png", await pngImage(50, 40), "image/png");
      const still = (await thumbnail(url, "840x560.webp")).res.rawPayload;
      assert.deepEqual((await thumbnail(url, "840x560-anim.webp")).res.rawPayload, still);
      assert.deepEqual((await thumbnail(url, "300x200.webp")).res.rawPayload, still);
      await assertHidden("hamlet", thumbnailUrl(url, "840x560.png"));
      await assertHidden("hamlet", thumbnailUrl(url, "../still.png"));
      await assertHidden("hamlet", `/user_uploads/thumbnail/${pathOf(url)}`);
    });

    it("lists server_thumbnail_formats in /register", async () => {
      const res = await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.server_thumbnail_formats, [
        { name: "840x560-anim.webp", max_width: 840, max_height: 560, format: "webp", animated: true },
        { name: "840x560.webp", max_width: 840, max_height: 560, format: "webp", animated: false },
      ]);
    });

    it("thumbnails an image that arrives over tus too", async () => {
      const data = await pngImage(30, 20);
      const headers = { host: t.host, authorization: basicAuth(t.users.hamlet), "tus-resumable": "1.0.0" };
      const metadata = `filename ${Buffer.from("resumed.png").toString("base64")},filetype ${Buffer.from("image/png").toString("base64")}`;
      const created = await t.app.inject({ method: "POST", url: "/api/v1/tus", headers: { ...headers, "upload-length": String(data.length), "upload-metadata": metadata } });
      assert.equal(created.statusCode, 201, created.body);
      const finished = await t.app.inject({
        method: "PATCH",
        url: String(created.headers.location),
        headers: { ...headers, "content-type": "application/offset+octet-stream", "upload-offset": "0" },
        payload: data,
      });
      assert.equal(finished.statusCode, 200, finished.body);
      assert.deepEqual((await thumbnail(finished.json().url, "840x560.webp")).image, { format: "webp", width: 30, height: 20, pages: 1 });
    });

    it("removes the thumbnails of an upload no message claimed, with it", async () => {
      const { url } = await uploadFile(t, "hamlet", "unclaimed.png", await pngImage(20, 20), "image/png");
      assert.equal(thumbnailFiles().length > 0, true);
      t.clock.seconds += 73 * 3600;
      try {
        assert.equal(await deleteUnclaimedAttachments(t.deps, 72) > 0, true);
      } finally {
        t.clock.seconds -= 73 * 3600;
      }
      const uploadDir = decodeURIComponent(pathOf(url)).split("/").slice(0, 2).join("/");
      assert.equal(existsSync(join(t.uploadsDir, "thumbnail", uploadDir)), false, "its directories are pruned too");
    });

    it("removes the thumbnails with the attachment", async () => {
      const before = thumbnailFiles().length;
      const { url } = await uploadFile(t, "hamlet", "gone.gif", await animatedGif(20, 20, 2), "image/gif");
      assert.equal(thumbnailFiles().length > before, true);
      const list = await t.as("hamlet").get("/attachments");
      const attachment = list.body.attachments.find((a: { path_id: string }) => url.endsWith(a.path_id));
      assert.equal((await t.as("hamlet").delete(`/attachments/${attachment.id}`)).status, 200);
      assert.equal(thumbnailFiles().length, before);
      await assertHidden("hamlet", thumbnailUrl(url, "840x560.webp"));
    });
  });
}
