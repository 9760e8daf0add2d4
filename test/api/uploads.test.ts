/** `POST /user_uploads` (spec 4.22, section 8): one file, the size limit, stored names, the record. */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { uploadStorage } from "../../src/uploads/storage.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, fetchUrl, uploadFile, uploadParts, type UploadRealm } from "../helpers/uploads.js";

const MiB = 1024 * 1024;

/** Every file under a directory, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

for (const kind of STORE_KINDS) {
  describe(`upload a file [${kind}]`, () => {
    let t: UploadRealm;
    before(async () => {
      t = await createUploadRealm(kind, { maxFileUploadSizeMib: 1 });
    });
    after(() => t.close());

    it("stores the file and answers url, uri and filename; records the attachment and tells the owner", async () => {
      t.published.length = 0;
      const res = await uploadParts(t, "hamlet", [{ filename: "zulip.txt", content: "zulip!", contentType: "text/plain" }]);
      assert.equal(res.status, 200, res.body);
      const body = res.json();
      assert.equal(body.result, "success");
      assert.equal(body.filename, "zulip.txt");
      assert.match(body.url, new RegExp(`^/user_uploads/${t.realmId}/[A-Za-z0-9_-]{24}/zulip\\.txt$`));
      assert.equal(body.uri, body.url);
      const pathId = body.url.slice("/user_uploads/".length);
      assert.equal(readFileSync(join(t.uploadsDir, pathId), "utf8"), "zulip!");

      const [event] = t.published.filter((p) => p.event.type === "attachment");
      assert.deepEqual(event.userIds, [t.users.hamlet.id]);
      assert.equal(event.event.op, "add");
      const attachment = event.event.attachment as Record<string, unknown>;
      assert.deepEqual(
        { ...attachment, id: 0 },
        { id: 0, name: "zulip.txt", path_id: pathId, size: 6, create_time: t.clock.seconds, message_ids: [] },
      );
      assert.equal(typeof event.event.upload_space_used, "number");

      const listed = await t.as("hamlet").get("/attachments");
      assert.ok(listed.body.attachments.some((a: { path_id: string }) => a.path_id === pathId));
    });

    it("keeps the declared content type, or guesses one from the name", async () => {
      const declared = await uploadFile(t, "hamlet", "photo.bin", "x", "image/png");
      assert.equal((await fetchUrl(t, "hamlet", declared.url)).headers["content-type"], "image/png");
      const guessed = await uploadFile(t, "hamlet", "song.mp3", "x", "application/octet-stream");
      assert.equal((await fetchUrl(t, "hamlet", guessed.url)).headers["content-type"], "audio/mpeg");
    });

    it("accepts a file of exactly the limit and refuses one byte more, storing nothing", async () => {
      const exact = await uploadParts(t, "hamlet", [{ filename: "exact.bin", content: Buffer.alloc(MiB, 1) }]);
      assert.equal(exact.status, 200, exact.body);
      const before = filesUnder(t.uploadsDir).length;
      const over = await uploadParts(t, "hamlet", [{ filename: "over.bin", content: Buffer.alloc(MiB + 1, 1) }]);
      assert.equal(over.status, 400);
      assert.deepEqual(over.json(), {
        result: "error",
        msg: "File is larger than this server's configured maximum upload size (1 MiB).",
        code: "BAD_REQUEST",
      });
      assert.equal(filesUnder(t.uploadsDir).length, before);
    });

    it("needs a file", async () => {
      for (const res of [
        await uploadParts(t, "hamlet", [{ field: "note", content: "no file here" }]),
        await t.as("hamlet").post("/user_uploads", { note: "form-encoded" }).then((r) => ({ status: r.status, json: () => r.body })),
      ]) {
        assert.equal(res.status, 400);
        assert.deepEqual(res.json(), { result: "error", msg: "You must specify a file to upload", code: "BAD_REQUEST" });
      }
    });

    it("takes one file at a time, storing none of several", async () => {
      const before = filesUnder(t.uploadsDir).length;
      const res = await uploadParts(t, "hamlet", [
        { filename: "a.txt", content: "a" },
        { filename: "b.txt", content: "b" },
      ]);
      assert.equal(res.status, 400);
      assert.equal(res.json().msg, "You may only upload one file at a time");
      assert.equal(filesUnder(t.uploadsDir).length, before);
    });

    it("needs authentication", async () => {
      const res = await t.app.inject({ method: "POST", url: "/api/v1/user_uploads", headers: { host: t.host } });
      assert.equal(res.statusCode, 401);
    });
  });

  describe(`upload limits from configuration [${kind}]`, () => {
    it("turns uploads off when the limit is 0", async () => {
      const t = await createUploadRealm(kind, { maxFileUploadSizeMib: 0 });
      try {
        const res = await uploadParts(t, "hamlet", [{ filename: "a.txt", content: "a" }]);
        assert.equal(res.status, 400);
        assert.deepEqual(res.json(), { result: "error", msg: "File uploads are disabled on this server.", code: "BAD_REQUEST" });
        assert.deepEqual(filesUnder(t.uploadsDir), []);
      } finally {
        await t.close();
      }
    });

    it("takes files past Fastify's 25 MiB body limit when the upload limit allows them", async () => {
      const t = await createUploadRealm(kind, { maxFileUploadSizeMib: 30 });
      try {
        const res = await uploadParts(t, "hamlet", [{ filename: "big.bin", content: Buffer.alloc(26 * MiB, 7) }]);
        assert.equal(res.status, 200, res.body);
        assert.equal((await t.as("hamlet").get("/attachments")).body.attachments[0].size, 26 * MiB);
      } finally {
        await t.close();
      }
    });
  });

  describe(`stored file names [${kind}]`, () => {
    let t: UploadRealm;
    before(async () => {
      t = await createUploadRealm(kind);
    });
    after(() => t.close());

    const stored = async (filename: string) => {
      const body = await uploadFile(t, "hamlet", filename, "content");
      const segments = body.url.split("/");
      assert.equal(segments.length, 5, body.url);
      assert.equal(decodeURIComponent(segments[4]), body.filename);
      return body.filename;
    };

    it("keeps an ordinary Unicode name, spaces as dashes", async () => {
      assert.equal(await stored("Relatório anual 2024.pdf"), "Relatório-anual-2024.pdf");
      assert.equal(await stored("日本語.txt"), "日本語.txt");
    });

    it("NFKC-normalises", async () => {
      assert.equal(await stored("ﬁle①.txt"), "file1.txt");
    });

    it("drops path traversal and separators", async () => {
      for (const name of ["../../etc/passwd", "..\\..\\windows\\system32\\x.dll", "/etc/passwd", "..", "."]) {
        const got = await stored(name);
        assert.ok(!/[/\\]/.test(got) && !got.startsWith("."), `${name} → ${got}`);
      }
      assert.equal(await stored("..\\..\\secret.txt"), "secret.txt");
    });

    it("drops NUL and other control characters", async () => {
      assert.equal(await stored("evil\u0000.txt.exe"), "evil.txt.exe");
      assert.equal(await stored("tab\tand\u0007bell.txt"), "tabandbell.txt");
    });

    it("drops the right-to-left override and other bidi controls", async () => {
      assert.equal(await stored("invoice\u202Efdp.exe"), "invoicefdp.exe");
      assert.equal(await stored("a\u2066b\u2069c\u200Fd.txt"), "abcd.txt");
    });

    it("caps a 1,000-character name at 255 bytes, keeping the extension", async () => {
      const got = await stored("a".repeat(1000) + ".png");
      assert.equal(got, "a".repeat(251) + ".png");
      const wide = await stored("é".repeat(1000) + ".jpeg");
      assert.ok(Buffer.byteLength(wide) <= 255 && wide.endsWith(".jpeg"), wide);
      assert.equal(wide, "é".repeat(125) + ".jpeg");
    });

    it("names a file with nothing usable left uploaded-file", async () => {
      assert.equal(await stored("\u202E\u0000"), "uploaded-file");
    });

    it("percent-encodes the URL, including the characters that end a Markdown link", async () => {
      const body = await uploadFile(t, "hamlet", "notes (final)!.txt", "x");
      assert.equal(body.filename, "notes-(final)!.txt");
      assert.ok(body.url.endsWith("/notes-%28final%29%21.txt"), body.url);
      assert.equal((await fetchUrl(t, "hamlet", body.url)).status, 200);
    });
  });

  describe(`local upload storage [${kind}]`, () => {
    let t: UploadRealm;
    before(async () => {
      t = await createUploadRealm(kind);
    });
    after(() => t.close());

    it("keeps every path strictly inside the uploads directory", async () => {
      const storage = uploadStorage(t.deps.config);
      for (const bad of ["../outside.txt", "1/../../outside.txt", "/etc/passwd", "1//x", "1/./x", "1\\..\\x", "1/x\u0000", ""]) {
        await assert.rejects(storage.get(bad), /unsafe upload path id/, JSON.stringify(bad));
        await assert.rejects(storage.delete(bad), /unsafe upload path id/, JSON.stringify(bad));
      }
      const { url } = await uploadFile(t, "hamlet", "inside.txt", "inside");
      const pathId = decodeURIComponent(url.slice("/user_uploads/".length));
      assert.deepEqual(await storage.stat(pathId), { size: 6 });
      assert.equal(await storage.stat(`${t.realmId}/none/such.txt`), null);
    });

    it("answers traversal attempts in file URLs like any missing file", async () => {
      for (const url of [
        `/user_uploads/${t.realmId}/..%2F..%2F..%2Fetc%2Fpasswd`,
        `/user_uploads/${t.realmId}/%2e%2e/%2e%2e/etc/passwd`,
        `/user_uploads/${t.realmId}/x/..%5C..%5Cwin.ini`,
      ]) {
        const res = await fetchUrl(t, "hamlet", url);
        assert.equal(res.status, 404, url);
        assert.match(res.json().msg, /^(File not found|Not Found)$/, url);
      }
    });
  });
}
