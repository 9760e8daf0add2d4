/**
 * Resumable uploads over tus at /api/v1/tus (spec 4.22; issue 7, item 4), against a listening
 * server: authentication, ownership of an upload, the size limit, the attachment it finishes into,
 * and a 200 MiB upload resumed after its PATCH was cut off.
 */
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { basicAuth } from "../helpers/http.js";
import { MAX_UNFINISHED_UPLOADS_PER_USER } from "../../src/http/tus-routes.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, type UploadRealm } from "../helpers/uploads.js";
import type { TestUser, UserName } from "../helpers/fixtures.js";

const MiB = 1024 * 1024;
/** Content of the big file: byte i is PATTERN[i % MiB], so any slice can be regenerated. */
const PATTERN = randomBytes(MiB);

function* bytesBetween(from: number, to: number): Generator<Buffer> {
  for (let at = from; at < to; ) {
    const start = at % MiB;
    const n = Math.min(MiB - start, to - at);
    yield PATTERN.subarray(start, start + n);
    at += n;
  }
}

function sha256Between(from: number, to: number): string {
  const hash = createHash("sha256");
  for (const chunk of bytesBetween(from, to)) hash.update(chunk);
  return hash.digest("hex");
}

const metadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString("base64")}`)
    .join(",");

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A tus client for the realm and listening address `at` gives (read at each call). */
function tusClient(at: () => { t: UploadRealm; base: string }) {
  /** One request; `body` chunks are streamed and the answer read whole. */
  const call = (method: string, path: string, who: UserName | TestUser | null, headers: Record<string, string> = {}, body?: Iterable<Buffer>): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const auth: Record<string, string> = who ? { authorization: basicAuth(typeof who === "string" ? at().t.users[who] : who) } : {};
      const req = request(`${at().base}${path}`, { method, headers: { host: at().t.host, ...auth, ...headers } }, (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (d: string) => (text += d)).on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on("error", reject);
      if (body) for (const chunk of body) req.write(chunk);
      req.end();
    });

  const create = async (who: UserName, length: number, meta: Record<string, string>) => {
    const res = await call("POST", "/api/v1/tus", who, { "tus-resumable": "1.0.0", "upload-length": String(length), "upload-metadata": metadata(meta) });
    assert.equal(res.status, 201, res.body);
    const location = String(res.headers.location);
    assert.match(location, /^\/api\/v1\/tus\/[0-9a-f]+$/);
    return location;
  };
  const patch = (who: UserName, location: string, offset: number, body: Iterable<Buffer>, length: number) =>
    call("PATCH", location, who, { "tus-resumable": "1.0.0", "upload-offset": String(offset), "content-type": "application/offset+octet-stream", "content-length": String(length) }, body);
  const offsetOf = async (who: UserName, location: string) => {
    const res = await call("HEAD", location, who, { "tus-resumable": "1.0.0" });
    return { status: res.status, offset: Number(res.headers["upload-offset"]) };
  };
  return { call, create, patch, offsetOf };
}

for (const kind of STORE_KINDS) {
  describe(`resumable uploads (tus) [${kind}]`, () => {
    let t: UploadRealm;
    let base: string;
    before(async () => {
      t = await createUploadRealm(kind, { maxFileUploadSizeMib: 250 });
      await t.app.listen({ port: 0, host: "127.0.0.1" });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(() => t.close());

    const { call, create, patch, offsetOf } = tusClient(() => ({ t, base }));

    it("answers the CORS preflight and capability request without credentials, with the size limit", async () => {
      const res = await call("OPTIONS", "/api/v1/tus", null);
      assert.equal(res.status, 204);
      assert.equal(res.headers["tus-max-size"], String(250 * MiB));
      assert.match(String(res.headers["tus-version"]), /1\.0\.0/);
    });

    it("needs API-key credentials for everything else", async () => {
      const res = await call("POST", "/api/v1/tus", null, { "tus-resumable": "1.0.0", "upload-length": "5" });
      assert.equal(res.status, 401);
      assert.equal(JSON.parse(res.body).code, "UNAUTHORIZED");
      const bad = await call("POST", "/api/v1/tus", null, { "tus-resumable": "1.0.0", "upload-length": "5", authorization: "Basic " + Buffer.from("hamlet@zulip.test:" + "x".repeat(32)).toString("base64") });
      assert.equal(bad.status, 401);
    });

    it("finishes into an attachment and URL like POST /user_uploads, with the same JSON answer", async () => {
      t.published.length = 0;
      const location = await create("hamlet", 11, { filename: "../tus notes\u202E.txt", filetype: "text/plain" });
      assert.deepEqual(await offsetOf("hamlet", location), { status: 200, offset: 0 });
      const done = await patch("hamlet", location, 0, [Buffer.from("hello "), Buffer.from("world")], 11);
      assert.equal(done.status, 200, done.body);
      const body = JSON.parse(done.body);
      assert.equal(body.result, "success");
      assert.equal(body.filename, "tus-notes.txt");
      assert.equal(body.uri, body.url);
      assert.match(body.url, new RegExp(`^/user_uploads/${t.realmId}/[A-Za-z0-9_-]{24}/tus-notes\\.txt$`));
      const file = await call("GET", body.url, "hamlet");
      assert.equal(file.body, "hello world");
      assert.equal(file.headers["content-type"], "text/plain");
      const listed = (await t.as("hamlet").get("/attachments")).body.attachments;
      assert.ok(listed.some((a: { path_id: string; size: number }) => a.path_id === decodeURIComponent(body.url.slice(14)) && a.size === 11));
      assert.ok(t.published.some((p) => p.event.type === "attachment" && p.event.op === "add"));
      assert.equal((await offsetOf("hamlet", location)).status, 404, "the partial upload is gone once finished");
    });

    it("hides an upload from everyone but its creator; the creator may terminate it", async () => {
      const location = await create("hamlet", 100, { filename: "mine.bin" });
      assert.equal((await offsetOf("othello", location)).status, 404);
      assert.equal((await patch("othello", location, 0, [Buffer.from("evil")], 4)).status, 404);
      assert.equal((await call("DELETE", location, "othello", { "tus-resumable": "1.0.0" })).status, 404);
      assert.deepEqual(await offsetOf("hamlet", location), { status: 200, offset: 0 });
      assert.equal((await call("DELETE", location, "hamlet", { "tus-resumable": "1.0.0" })).status, 204);
      assert.equal((await offsetOf("hamlet", location)).status, 404);
    });

    it("refuses an upload larger than the limit", async () => {
      const res = await call("POST", "/api/v1/tus", "hamlet", { "tus-resumable": "1.0.0", "upload-length": String(250 * MiB + 1) });
      assert.equal(res.status, 413);
    });

    it("resumes a 200 MiB upload after its PATCH is cut off, and stores it whole", async () => {
      const size = 200 * MiB;
      const location = await create("hamlet", size, { filename: "big.bin", filetype: "application/octet-stream" });
      const cutAt = 70 * MiB;
      await new Promise<void>((resolve) => {
        const req = request(`${base}${location}`, {
          method: "PATCH",
          headers: {
            host: t.host,
            authorization: basicAuth(t.users.hamlet),
            "tus-resumable": "1.0.0",
            "upload-offset": "0",
            "content-type": "application/offset+octet-stream",
            "content-length": String(size),
          },
        });
        req.on("error", () => resolve());
        req.on("response", () => resolve());
        const chunks = bytesBetween(0, cutAt);
        const pump = () => {
          for (let next = chunks.next(); !next.done; next = chunks.next()) {
            if (!req.write(next.value)) return void req.once("drain", pump);
          }
          setTimeout(() => req.destroy(), 50);
        };
        pump();
      });
      let offset = 0;
      for (let i = 0; i < 100; i++) {
        ({ offset } = await offsetOf("hamlet", location));
        if (offset > 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(offset > 0 && offset <= cutAt, `resumes from ${offset}`);
      const done = await patch("hamlet", location, offset, bytesBetween(offset, size), size - offset);
      assert.equal(done.status, 200, done.body);
      const { url } = JSON.parse(done.body);

      const hash = createHash("sha256");
      const received = await new Promise<number>((resolve, reject) => {
        request(`${base}${url}`, { headers: { host: t.host, authorization: basicAuth(t.users.hamlet) } }, (res) => {
          let n = 0;
          res.on("data", (d: Buffer) => {
            n += d.length;
            hash.update(d);
          });
          res.on("end", () => resolve(n));
        })
          .on("error", reject)
          .end();
      });
      assert.equal(received, size);
      assert.equal(hash.digest("hex"), sha256Between(0, size));
    });
  });

  describe(`resumable uploads are bounded like POST /user_uploads [${kind}] (issue 16, F11)`, () => {
    let t: UploadRealm;
    let base: string;
    before(async () => {
      t = await createUploadRealm(kind, { maxFileUploadSizeMib: 250, uploadQuotaMib: 1, rateLimiting: true });
      await t.app.listen({ port: 0, host: "127.0.0.1" });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(() => t.close());
    const { call, create } = tusClient(() => ({ t, base }));
    const start = (who: UserName, length: number) => call("POST", "/api/v1/tus", who, { "tus-resumable": "1.0.0", "upload-length": String(length) });
    const cancel = (who: UserName, location: string) => call("DELETE", location, who, { "tus-resumable": "1.0.0" });

    it("refuses a length declared later, as Zulip's tusd hook does", async () => {
      const res = await call("POST", "/api/v1/tus", "hamlet", { "tus-resumable": "1.0.0", "upload-defer-length": "1" });
      assert.equal(res.status, 400);
      assert.equal(JSON.parse(res.body).msg, "Deferred file size not allowed.");
    });

    it("counts unfinished uploads against the realm's quota from their creation", async () => {
      const first = await create("hamlet", 600 * 1024, { filename: "a.bin" });
      const second = await start("othello", 600 * 1024);
      assert.equal(second.status, 413, "two unfinished 600 KiB uploads would hold more than the 1 MiB quota");
      assert.equal(JSON.parse(second.body).msg, "Upload would exceed your organization's upload quota.");
      assert.equal((await cancel("hamlet", first)).status, 204);
      const third = await create("othello", 600 * 1024, { filename: "b.bin" });
      await cancel("othello", third);
    });

    it("limits how many unfinished uploads one user holds", async () => {
      const held = [];
      for (let i = 0; i < MAX_UNFINISHED_UPLOADS_PER_USER; i++) held.push(await create("cordelia", 10, { filename: `${i}.txt` }));
      const over = await start("cordelia", 10);
      assert.equal(over.status, 400);
      assert.match(JSON.parse(over.body).msg, /unfinished uploads/);
      assert.equal((await start("othello", 10)).status, 201, "others are not affected");
      for (const location of held) await cancel("cordelia", location);
      assert.equal((await start("cordelia", 10)).status, 201);
    });

    it("refuses incoming-webhook bots, as POST /user_uploads does", async () => {
      const made = await t.as("hamlet").post("/bots", { full_name: "Hook", short_name: "hook", bot_type: 2 });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const email = (await t.as("hamlet").get(`/users/${made.body.user_id}`)).body.user.email;
      const hook = { id: made.body.user_id, email, apiKey: made.body.api_key, fullName: "Hook", role: 400 } as TestUser;
      const res = await call("POST", "/api/v1/tus", hook, { "tus-resumable": "1.0.0", "upload-length": "5" });
      assert.equal(res.status, 400);
      assert.equal(JSON.parse(res.body).msg, "This API is not available to incoming webhook bots.");
    });

    it("charges the API rate limit per user", async () => {
      t.clock.seconds += 3600;
      let last = 0;
      for (let i = 0; i < 201 && last !== 429; i++) last = (await call("HEAD", "/api/v1/tus/nonexistent", "iago", { "tus-resumable": "1.0.0" })).status;
      assert.equal(last, 429);
    });
  });

  describe(`resumable uploads when uploads are off [${kind}]`, () => {
    it("refuses with the same error as POST /user_uploads", async () => {
      const t = await createUploadRealm(kind, { maxFileUploadSizeMib: 0 });
      try {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/v1/tus",
          headers: { host: t.host, authorization: basicAuth(t.users.hamlet), "tus-resumable": "1.0.0", "upload-length": "5" },
        });
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().msg, "File uploads are disabled on this server.");
      } finally {
        await t.close();
      }
    });
  });
}
