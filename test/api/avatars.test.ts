/**
 * Avatars, the realm icon and the emoji data file (issue 15): users carry avatar_url as Zulip
 * does per client_gravatar and ENABLE_GRAVATAR; GET /avatar/{user_id|email}[/medium] redirects
 * to it; the images Parley draws where Zulip would use Gravatar are served to anyone, as PNG (the
 * mobile app decodes no SVG), 100 and 500 pixels square; realm_icon_url and
 * server_emoji_data_url name files that exist.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { serverEmojiData } from "../../src/lib/server-emoji-data.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { fetchUrl } from "../helpers/uploads.js";

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(data: Buffer): [number, number] {
  assert.deepEqual([...data.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "PNG signature");
  return [data.readUInt32BE(16), data.readUInt32BE(20)];
}

for (const kind of STORE_KINDS) {
  describe(`avatars and served images [${kind}]`, () => {
    let t: TestRealm;
    let defaults: string;
    before(async () => {
      t = await createTestRealm(kind);
      defaults = `/user_avatars/${t.realmId}/defaults`;
    });
    after(() => t.close());

    it("register gives every user an avatar_url, under user_avatar_url_field_optional too, and the viewer's own at two sizes", async () => {
      const res = await t.as("hamlet").post("/register", {
        fetch_event_types: ["realm_user"],
        client_gravatar: false,
        client_capabilities: { user_avatar_url_field_optional: true },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      for (const u of res.body.realm_users) assert.equal(u.avatar_url, `${defaults}/${u.user_id}.png?version=1`);
      assert.equal(res.body.avatar_url, `${defaults}/${t.users.hamlet.id}.png?version=1`);
      assert.equal(res.body.avatar_url_medium, `${defaults}/${t.users.hamlet.id}-medium.png?version=1`);
    });

    it("redirects /avatar/{id} and /avatar/{email} (and /medium) to the avatar, keeping the query string", async () => {
      const id = t.users.othello.id;
      const cases: Array<[string, string]> = [
        [`/avatar/${id}`, `${defaults}/${id}.png?version=1`],
        [`/avatar/${id}/medium`, `${defaults}/${id}-medium.png?version=1`],
        ["/avatar/othello@zulip.test", `${defaults}/${id}.png?version=1`],
        ["/avatar/OTHELLO@zulip.test/medium", `${defaults}/${id}-medium.png?version=1`],
        [`/avatar/${id}?s=80`, `${defaults}/${id}.png?version=1&s=80`],
        // Nobody by that id or address: Zulip's default avatar.
        ["/avatar/99999", "/static/images/default-avatar.png?version=1"],
        ["/avatar/nobody@zulip.test/medium", "/static/images/default-avatar-medium.png?version=1"],
      ];
      for (const [url, location] of cases) {
        const res = await fetchUrl(t, "hamlet", url);
        assert.equal(res.status, 302, `${url}: ${res.body}`);
        assert.equal(res.headers.location, location, url);
      }
    });

    it("serves the drawn avatars to anyone as PNG, 100 and 500 pixels, cacheable for good", async () => {
      for (const [url, side] of [[`${defaults}/${t.users.hamlet.id}.png`, 100], [`${defaults}/${t.users.hamlet.id}-medium.png`, 500], ["/static/images/default-avatar.png", 100]] as const) {
        const res = await fetchUrl(t, null, `${url}?version=1`);
        assert.equal(res.status, 200, url);
        assert.equal(res.headers["content-type"], "image/png");
        assert.deepEqual(pngSize(res.rawPayload), [side, side], url);
        assert.match(String(res.headers["cache-control"]), /immutable/);
        const again = await fetchUrl(t, null, url, { "if-none-match": String(res.headers.etag) });
        assert.equal(again.status, 304, url);
      }
      const mine = (await fetchUrl(t, null, `${defaults}/${t.users.hamlet.id}.png`)).rawPayload;
      const theirs = (await fetchUrl(t, null, `${defaults}/${t.users.othello.id}.png`)).rawPayload;
      assert.notDeepEqual(mine, theirs, "users get different images");
      for (const bad of [`${defaults}/abc.png`, `${defaults}/${t.users.hamlet.id}.gif`, "/user_avatars/x/defaults/1.png"]) {
        assert.equal((await fetchUrl(t, null, bad)).status, 404, bad);
      }
    });

    it("lets spectators use /avatar/{id} only where the realm admits them (a web-public channel too), and never by email", async () => {
      assert.equal((await fetchUrl(t, null, `/avatar/${t.users.hamlet.id}`)).status, 401);
      assert.equal((await fetchUrl(t, null, "/avatar/hamlet@zulip.test", { cookie: "sessionid=stale" })).status, 401);
      assert.equal((await t.as("desdemona").patch("/realm", { enable_spectator_access: true })).status, 200);
      let webPublic: number | undefined;
      try {
        // Zulip's allow_web_public_streams_access also needs a web-public channel to exist.
        assert.equal((await fetchUrl(t, null, `/avatar/${t.users.hamlet.id}`)).status, 401);
        const created = await t.as("desdemona").post("/channels/create", { name: "avatars in public", subscribers: [], is_web_public: true });
        assert.equal(created.status, 200, JSON.stringify(created.body));
        webPublic = created.body.id as number;
        assert.equal((await fetchUrl(t, null, `/avatar/${t.users.hamlet.id}`)).status, 302);
        assert.equal((await fetchUrl(t, null, "/avatar/hamlet@zulip.test")).status, 401);
      } finally {
        if (webPublic !== undefined) await t.as("desdemona").delete(`/streams/${webPublic}`);
        await t.as("desdemona").patch("/realm", { enable_spectator_access: false });
      }
    });

    it("names a realm icon that exists, in register and server_settings", async () => {
      const icon = (await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body.realm_icon_url as string;
      assert.equal((await t.as(null).get("/server_settings")).body.realm_icon, icon);
      assert.equal(icon, `${defaults}/realm-icon.png?version=1`);
      const res = await fetchUrl(t, null, icon);
      assert.equal(res.status, 200);
      assert.deepEqual(pngSize(res.rawPayload), [100, 100]);
    });

    it("serves the emoji data of server_emoji_data_url without credentials, built once", async () => {
      const url = (await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body.server_emoji_data_url as string;
      const origin = "https://zulip.testserver.local:9991";
      assert.ok(url.startsWith(`${origin}/static/generated/emoji/emoji_api.`), url);
      const path = url.slice(origin.length);
      const res = await fetchUrl(t, null, path);
      assert.equal(res.status, 200);
      assert.equal(res.headers["content-type"], "application/json");
      assert.match(String(res.headers["cache-control"]), /immutable/);
      const data = res.json() as { code_to_names: Record<string, string[]> };
      assert.deepEqual(Object.keys(data), ["code_to_names"]);
      assert.deepEqual(data.code_to_names["1f44d"], ["thumbs_up", "+1", "like"]);
      assert.equal(data.code_to_names["1f642"][0], "slight_smile");
      assert.ok(Object.keys(data.code_to_names).length > 1500);
      for (const [code, names] of Object.entries(data.code_to_names)) {
        assert.match(code, /^[0-9a-f]{4,6}(-[0-9a-f]{4,6})*$/);
        assert.ok(names.length > 0 && names.every((n) => /^[a-z0-9_+-]+$/.test(n)), `${code}: ${names.join(",")}`);
      }
      assert.equal((await fetchUrl(t, null, path, { "if-none-match": String(res.headers.etag) })).status, 304);
      assert.equal((await fetchUrl(t, null, "/static/generated/emoji/emoji_api.json")).body, res.body);
      assert.equal((await fetchUrl(t, null, "/static/generated/emoji/emoji_api.0000.json")).status, 404);
      assert.equal(serverEmojiData(), serverEmojiData(), "the same built data every time");
    });
  });

  describe(`avatars with Gravatar on [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind, { enableGravatar: true });
    });
    after(() => t.close());

    it("points at Gravatar, null for clients that compute it themselves, as Zulip with ENABLE_GRAVATAR", async () => {
      const computed = await t.as("hamlet").get("/users", { client_gravatar: true });
      assert.ok(computed.body.members.every((m: { avatar_url: unknown }) => m.avatar_url === null));
      const given = await t.as("hamlet").get(`/users/${t.users.othello.id}`, { client_gravatar: false });
      assert.match(given.body.user.avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
      const medium = await fetchUrl(t, "hamlet", `/avatar/${t.users.othello.id}/medium`);
      assert.match(String(medium.headers.location), /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&s=500&version=1$/);
      const register = await t.as("hamlet").post("/register", { fetch_event_types: ["realm", "realm_user"], client_gravatar: true });
      assert.match(register.body.avatar_url, /^https:\/\/secure\.gravatar\.com\//, "the viewer's own is always given");
      assert.match(register.body.realm_icon_url, /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon$/);
    });
  });
}
