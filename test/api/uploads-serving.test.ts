/**
 * Serving uploads (issue 7, item 2): who may read a file, the headers every file carries, byte
 * ranges and ETags, and the temporary URLs of `GET /api/v1/user_uploads/…`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkCreateRealm } from "../../src/actions/realm/realms.js";
import { getChannelById } from "../../src/store/channels.js";
import { readTx, transaction } from "../../src/store/db.js";
import { subscribeUsers } from "../../src/store/subscriptions.js";
import { PASSWORD } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, fetchUrl, multipartBody, uploadFile, type UploadRealm } from "../helpers/uploads.js";

for (const kind of STORE_KINDS) {
  describe(`who may read an upload [${kind}]`, () => {
    let t: UploadRealm;
    let missing: { status: number; body: string };
    before(async () => {
      t = await createUploadRealm(kind);
      const res = await t.as("iago").post("/channels/create", {
        name: "Verona",
        subscribers: [t.users.iago.id, t.users.hamlet.id, t.users.othello.id],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const secret = await t.as("iago").post("/channels/create", {
        name: "Elsinore",
        invite_only: true,
        history_public_to_subscribers: false,
        subscribers: [t.users.iago.id, t.users.hamlet.id],
      });
      assert.equal(secret.status, 200, JSON.stringify(secret.body));
      const r = await fetchUrl(t, "hamlet", `/user_uploads/${t.realmId}/AAAAAAAAAAAAAAAAAAAAAAAA/nothing.txt`);
      missing = { status: r.status, body: r.body };
    });
    after(() => t.close());

    const send = async (who: "hamlet" | "iago", params: Record<string, unknown>) => {
      const res = await t.as(who).post("/messages", params);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    const assertHidden = async (who: Parameters<typeof fetchUrl>[1], url: string) => {
      const res = await fetchUrl(t, who, url);
      assert.deepEqual({ status: res.status, body: res.body }, missing, `${who} ${url}`);
    };

    it("answers a missing file 404", () => {
      assert.equal(missing.status, 404);
      assert.deepEqual(JSON.parse(missing.body), { result: "error", msg: "File not found", code: "BAD_REQUEST" });
    });

    it("lets the uploader read an unshared file, and nobody else", async () => {
      const { url } = await uploadFile(t, "hamlet", "draft.txt", "private draft");
      const own = await fetchUrl(t, "hamlet", url);
      assert.equal(own.status, 200);
      assert.equal(own.body, "private draft");
      await assertHidden("othello", url);
      await assertHidden("iago", url);
    });

    it("needs credentials", async () => {
      const { url } = await uploadFile(t, "hamlet", "creds.txt", "x");
      const res = await fetchUrl(t, null, url);
      assert.equal(res.status, 401);
      assert.equal(res.headers["www-authenticate"], 'Basic realm="zulip"');
    });

    it("shares a file with the recipients of a direct message that links it", async () => {
      const { url } = await uploadFile(t, "hamlet", "for-othello.txt", "psst");
      await send("hamlet", { type: "direct", to: [t.users.othello.id], content: `[for-othello.txt](${url})` });
      assert.equal((await fetchUrl(t, "othello", url)).body, "psst");
      await assertHidden("cordelia", url);
    });

    it("shares a file in a public channel with every member, but not with a guest outside it", async () => {
      const { url } = await uploadFile(t, "hamlet", "public.txt", "for all");
      await send("hamlet", { type: "stream", to: "Verona", topic: "files", content: `see [public.txt](${url})` });
      assert.equal((await fetchUrl(t, "othello", url)).status, 200);
      assert.equal((await fetchUrl(t, "cordelia", url)).status, 200, "unsubscribed member reads public history");
      await assertHidden("polonius", url);
    });

    it("follows protected history in a private channel: a later subscriber cannot read an earlier file", async () => {
      const { url } = await uploadFile(t, "hamlet", "secret.txt", "ghost");
      await send("hamlet", { type: "stream", to: "Elsinore", topic: "files", content: `[secret.txt](${url})` });
      assert.equal((await fetchUrl(t, "iago", url)).status, 200);
      await assertHidden("othello", url);
      const channel = (await readTx(t.deps.store).db.selectFrom("channels").select("id").where("name", "=", "Elsinore").executeTakeFirstOrThrow()).id;
      const recipientId = (await getChannelById(readTx(t.deps.store), t.realmId, channel))!.recipient_id!;
      await transaction(t.deps.store, (tx) => subscribeUsers(tx, recipientId, [t.users.othello.id], () => "#c2c2c2"));
      await assertHidden("othello", url);
    });

    it("lets a reader re-share a file, and nobody grant access to a file they cannot read", async () => {
      const { url } = await uploadFile(t, "hamlet", "chain.txt", "chain");
      await send("hamlet", { type: "direct", to: [t.users.iago.id], content: `[chain.txt](${url})` });
      await send("iago", { type: "direct", to: [t.users.cordelia.id], content: `fwd [chain.txt](${url})` });
      assert.equal((await fetchUrl(t, "cordelia", url)).status, 200);
      const { url: hidden } = await uploadFile(t, "hamlet", "hidden.txt", "hidden");
      await send("iago", { type: "direct", to: [t.users.cordelia.id], content: `guess [hidden.txt](${hidden})` });
      await assertHidden("cordelia", hidden);
    });

    it("keeps files of another realm hidden, from its URL and from a user of that realm", async () => {
      const { url } = await uploadFile(t, "hamlet", "home.txt", "home");
      const other = await checkCreateRealm(
        t.deps.store,
        { subdomain: "lear", name: "Lear", ownerEmail: "lear@zulip.test", ownerName: "Lear", ownerPassword: PASSWORD },
        t.clock.now(),
      );
      const lear = { email: other.owner.email, apiKey: other.owner.apiKey };
      const host = `lear.${t.host.slice("zulip.".length)}`;
      const auth = "Basic " + Buffer.from(`${lear.email}:${lear.apiKey}`).toString("base64");
      const foreign = await t.app.inject({ method: "GET", url, headers: { host, authorization: auth } });
      assert.equal(foreign.statusCode, 404);
      assert.equal(foreign.body, missing.body);
      const { payload, contentType } = multipartBody([{ filename: "lear.txt", content: "crown" }]);
      const up = await t.app.inject({ method: "POST", url: "/api/v1/user_uploads", headers: { host, authorization: auth, "content-type": contentType }, payload });
      assert.equal(up.statusCode, 200, up.body);
      const learUrl: string = up.json().url;
      assert.ok(learUrl.startsWith(`/user_uploads/${other.realmId}/`));
      await assertHidden("hamlet", learUrl);
      await assertHidden("hamlet", learUrl.replace(`/user_uploads/${other.realmId}/`, `/user_uploads/${t.realmId}/`));
    });
  });

  describe(`upload response headers, ranges and ETags [${kind}]`, () => {
    let t: UploadRealm;
    before(async () => {
      t = await createUploadRealm(kind);
    });
    after(() => t.close());

    it("serves safe images inline and everything else as a download, always nosniff and a closed CSP", async () => {
      const cases: Array<[string, string, string]> = [
        ["pic.png", "image/png", "inline"],
        ["clip.mp4", "video/mp4", "inline"],
        ["clip.mov", "video/quicktime", "inline"],
        ["doc.pdf", "application/pdf", "inline"],
        ["page.html", "text/html", "attachment"],
        ["logo.svg", "image/svg+xml", "attachment"],
        ["notes.txt", "text/plain", "attachment"],
        ["blob.bin", "application/octet-stream", "attachment"],
      ];
      for (const [name, type, disposition] of cases) {
        const { url } = await uploadFile(t, "hamlet", name, "<script>alert(1)</script>", type);
        const res = await fetchUrl(t, "hamlet", url);
        assert.equal(res.status, 200, name);
        assert.equal(res.headers["content-type"], type, name);
        assert.equal(res.headers["content-disposition"], `${disposition}; filename="${name}"; filename*=UTF-8''${name}`, name);
        assert.equal(res.headers["x-content-type-options"], "nosniff");
        assert.equal(res.headers["content-security-policy"], "default-src 'none'");
        assert.match(String(res.headers["cache-control"]), /^private/);
        assert.equal(res.headers["accept-ranges"], "bytes");
      }
    });

    it("names a non-ASCII file exactly in filename* with an ASCII fallback", async () => {
      const { url } = await uploadFile(t, "hamlet", "résumé \"final\".txt", "cv");
      const res = await fetchUrl(t, "hamlet", url);
      assert.equal(res.headers["content-disposition"], `attachment; filename="r_sum_-_22final_22.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9-%2522final%2522.txt`);
    });

    it("serves one byte range (206), an open or suffix range, and 416 past the end", async () => {
      const { url } = await uploadFile(t, "hamlet", "digits.txt", "0123456789");
      const cases: Array<[string, number, string, string | undefined]> = [
        ["bytes=0-3", 206, "0123", "bytes 0-3/10"],
        ["bytes=7-", 206, "789", "bytes 7-9/10"],
        ["bytes=-2", 206, "89", "bytes 8-9/10"],
        ["bytes=5-100", 206, "56789", "bytes 5-9/10"],
        ["bytes=0-1,4-5", 200, "0123456789", undefined],
        ["items=0-3", 200, "0123456789", undefined],
        ["bytes=5-2", 200, "0123456789", undefined],
      ];
      for (const [range, status, body, contentRange] of cases) {
        const res = await fetchUrl(t, "hamlet", url, { range });
        assert.equal(res.status, status, range);
        assert.equal(res.body, body, range);
        assert.equal(res.headers["content-range"], contentRange, range);
        assert.equal(Number(res.headers["content-length"]), body.length, range);
      }
      for (const range of ["bytes=10-", "bytes=20-30", "bytes=-0"]) {
        const res = await fetchUrl(t, "hamlet", url, { range });
        assert.equal(res.status, 416, range);
        assert.equal(res.headers["content-range"], "bytes */10", range);
      }
    });

    it("answers 304 to a matching If-None-Match and honours If-Range only for the current ETag", async () => {
      const { url } = await uploadFile(t, "hamlet", "cached.txt", "cache me");
      const first = await fetchUrl(t, "hamlet", url);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[A-Za-z0-9_-]{32}"$/);
      const again = await fetchUrl(t, "hamlet", url, { "if-none-match": etag });
      assert.equal(again.status, 304);
      assert.equal(again.body, "");
      assert.equal(again.headers.etag, etag);
      assert.equal((await fetchUrl(t, "hamlet", url, { "if-none-match": `"other", W/${etag}` })).status, 304);
      assert.equal((await fetchUrl(t, "hamlet", url, { "if-none-match": '"other"' })).status, 200);
      assert.equal((await fetchUrl(t, "hamlet", url, { range: "bytes=0-4", "if-range": etag })).status, 206);
      const stale = await fetchUrl(t, "hamlet", url, { range: "bytes=0-4", "if-range": '"stale"' });
      assert.equal(stale.status, 200);
      assert.equal(stale.body, "cache me");
      const { url: other } = await uploadFile(t, "hamlet", "cached.txt", "cache me");
      assert.notEqual((await fetchUrl(t, "hamlet", other)).headers.etag, etag, "another upload gets another ETag");
    });

    it("does not let a reader without access learn anything from conditional requests", async () => {
      const { url } = await uploadFile(t, "hamlet", "quiet.txt", "quiet");
      const etag = String((await fetchUrl(t, "hamlet", url)).headers.etag);
      const res = await fetchUrl(t, "othello", url, { "if-none-match": etag });
      assert.equal(res.status, 404);
      assert.equal(res.headers.etag, undefined);
    });
  });

  describe(`temporary file URLs [${kind}]`, () => {
    let t: UploadRealm;
    before(async () => {
      t = await createUploadRealm(kind);
    });
    after(() => t.close());

    const pathOf = (url: string) => url.slice("/user_uploads/".length);

    it("hands a reader a URL that works without credentials for 60 seconds", async () => {
      const { url } = await uploadFile(t, "hamlet", "résumé.pdf", "%PDF-1.4", "application/pdf");
      const res = await t.as("hamlet").get(`/user_uploads/${pathOf(url)}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.match(res.body.url, /^\/user_uploads\/temporary\/[0-9]+\.[0-9]+\.[0-9]+\.[A-Za-z0-9_-]{43}\/r%C3%A9sum%C3%A9\.pdf$/);
      const file = await fetchUrl(t, null, res.body.url);
      assert.equal(file.status, 200);
      assert.equal(file.body, "%PDF-1.4");
      assert.equal(file.headers["content-security-policy"], "default-src 'none'");
      t.clock.seconds += 61;
      assert.equal((await fetchUrl(t, null, res.body.url)).status, 404);
    });

    it("refuses a URL for a file the user may not read, and a tampered or revoked token", async () => {
      const { url } = await uploadFile(t, "hamlet", "mine.txt", "mine");
      const denied = await t.as("othello").get(`/user_uploads/${pathOf(url)}`);
      assert.equal(denied.status, 404);
      assert.equal(denied.body.msg, "File not found");
      const granted = (await t.as("hamlet").get(`/user_uploads/${pathOf(url)}`)).body.url as string;
      const tampered = granted.replace(/\/temporary\/(\d+)\./, (_m, id) => `/temporary/${Number(id) + 1}.`);
      assert.equal((await fetchUrl(t, null, tampered)).status, 404);
      assert.equal((await fetchUrl(t, null, "/user_uploads/temporary/garbage/mine.txt")).status, 404);
      const rotated = await t.as("hamlet").post("/users/me/api_key/regenerate");
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      assert.equal((await fetchUrl(t, null, granted)).status, 404, "a new API key revokes old URLs");
    });
  });
}
