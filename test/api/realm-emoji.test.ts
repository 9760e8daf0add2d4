/** Custom emoji (issue 6, item 9; Zulip's realm emoji endpoints) and their image URLs, on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { UserName } from "../helpers/fixtures.js";
import { eventsOf, setRealmGroups } from "../helpers/channels.js";
import { basicAuth } from "../helpers/http.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { animatedGif, describeImage } from "../helpers/images.js";
import { createUploadRealm, fetchUrl, multipartBody, type Part, type UploadRealm } from "../helpers/uploads.js";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

for (const kind of STORE_KINDS) {
  describe(`realm emoji [${kind}]`, () => {
    let t: UploadRealm;
    beforeEach(async () => {
      t = await createUploadRealm(kind);
    });
    afterEach(() => t.close());

    async function upload(who: UserName, name: string, parts: readonly Part[] = [{ filename: "img.png", content: PNG, contentType: "image/png" }]) {
      const { payload, contentType } = multipartBody(parts);
      const res = await t.app.inject({
        method: "POST",
        url: `/api/v1/realm/emoji/${encodeURIComponent(name)}`,
        headers: { host: t.host, authorization: basicAuth(t.users[who]), "content-type": contentType },
        payload,
      });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    }
    const list = async () => (await t.as("polonius").get("/realm/emoji")).body.emoji as Record<string, Record<string, unknown>>;
    const byName = async (name: string) => Object.values(await list()).find((e) => e.name === name && !e.deactivated);

    it("adds an emoji whose image anyone can load, and tells everyone", async () => {
      t.published.length = 0;
      const res = await upload("hamlet", "green tick");
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const emoji = await byName("green_tick");
      assert.ok(emoji);
      assert.deepEqual(Object.keys(emoji).sort(), ["author_id", "deactivated", "id", "name", "source_url", "still_url"]);
      assert.equal(emoji.author_id, t.users.hamlet.id);
      assert.match(String(emoji.source_url), new RegExp(`^/user_avatars/${t.realmId}/emoji/images/[A-Za-z0-9_-]+\\.png$`));
      const image = await fetchUrl(t, null, String(emoji.source_url));
      assert.equal(image.status, 200);
      assert.equal(image.headers["content-type"], "image/png");
      assert.equal(image.headers["x-content-type-options"], "nosniff");
      assert.deepEqual(image.rawPayload, PNG);
      const [event] = eventsOf(t, "realm_emoji", "update");
      assert.deepEqual(event.event.realm_emoji, await list());
      assert.ok(event.userIds.includes(t.users.polonius.id) && event.userIds.includes(t.users.bot.id));
      assert.equal((await fetchUrl(t, null, `/user_avatars/${t.realmId}/emoji/images/missing.png`)).status, 404);
    });

    it("takes the image type from the bytes: PNG, GIF, JPEG, WebP only", async () => {
      assert.equal((await upload("hamlet", "wavy-gif", [{ filename: "wave.png", content: GIF, contentType: "image/png" }])).status, 200);
      assert.match(String((await byName("wavy-gif"))?.source_url), /\.gif$/);
      const text = await upload("hamlet", "textfile", [{ filename: "a.png", content: "not an image", contentType: "image/png" }]);
      assertError(text, "Invalid image format", "BAD_IMAGE");
      const svg = await upload("hamlet", "svgfile", [{ filename: "a.svg", content: "<svg xmlns='http://www.w3.org/2000/svg'/>", contentType: "image/svg+xml" }]);
      assertError(svg, "Invalid image format", "BAD_IMAGE");
      assert.equal(await byName("textfile"), undefined);
    });

    it("gives an animated emoji a still_url: its first frame as a PNG (FL 97); a still image has none", async () => {
      const gif = await animatedGif(40, 30, 3);
      assert.equal((await upload("hamlet", "blinking", [{ filename: "blink.gif", content: gif, contentType: "image/gif" }])).status, 200);
      const animated = await byName("blinking");
      const base = String(animated?.source_url).replace(/^.*\/([A-Za-z0-9_-]+)\.gif$/, "$1");
      assert.equal(animated?.still_url, `/user_avatars/${t.realmId}/emoji/images/still/${base}.png`);
      const still = await fetchUrl(t, null, String(animated?.still_url));
      assert.equal(still.status, 200);
      assert.equal(still.headers["content-type"], "image/png");
      assert.deepEqual(await describeImage(still.rawPayload), { format: "png", width: 40, height: 30, pages: 1 });
      // The original still animates.
      assert.equal((await describeImage((await fetchUrl(t, null, String(animated?.source_url))).rawPayload)).pages, 3);

      assert.equal((await upload("hamlet", "flat", [{ filename: "flat.gif", content: GIF, contentType: "image/gif" }])).status, 200);
      const flat = await byName("flat");
      assert.equal(flat?.still_url, null);
      const flatBase = String(flat?.source_url).replace(/^.*\/([A-Za-z0-9_-]+)\.gif$/, "$1");
      assert.equal((await fetchUrl(t, null, `/user_avatars/${t.realmId}/emoji/images/still/${flatBase}.png`)).status, 404);
      assert.equal((await fetchUrl(t, null, `/user_avatars/${t.realmId}/emoji/images/still/..%2Fx.png`)).status, 404);
    });

    it("wants exactly one file of at most 5 MiB", async () => {
      assertError(await upload("hamlet", "nofile", []), "You must upload exactly one file.");
      const two = await upload("hamlet", "twofiles", [{ filename: "a.png", content: PNG }, { filename: "b.png", content: PNG }]);
      assertError(two, "You must upload exactly one file.");
      const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
      assertError(await upload("hamlet", "toobig", [{ filename: "big.png", content: big }]), "Uploaded file is larger than the allowed limit of 5 MiB");
      assert.equal(Object.keys(await list()).length, 0);
    });

    it("checks names: characters, ending, length, uniqueness among active emoji", async () => {
      assertError(await upload("hamlet", "Big"), "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.");
      assertError(await upload("hamlet", "tick!"), "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.");
      assertError(await upload("hamlet", "tick_"), "Emoji names must end with either a letter or digit.");
      assertError(await upload("hamlet", "a".repeat(61)), "Emoji name is too long (limit: 60 characters)");
      assert.equal((await upload("hamlet", "a".repeat(60))).status, 200);
      assert.equal((await upload("hamlet", "party-parrot_2")).status, 200);
      assertError(await upload("othello", "party-parrot_2"), "A custom emoji with this name already exists.");
      assert.equal((await t.as("hamlet").delete("/realm/emoji/party-parrot_2")).status, 200);
      assert.equal((await upload("othello", "party-parrot_2")).status, 200);
      const all = Object.values(await list()).filter((e) => e.name === "party-parrot_2");
      assert.deepEqual(all.map((e) => e.deactivated), [true, false]);
    });

    it("lets only administrators override a built-in emoji name", async () => {
      assertError(await upload("hamlet", "smile"), "Only administrators can override built-in emoji.");
      assert.equal((await upload("iago", "smile")).status, 200);
    });

    it("follows can_add_custom_emoji_group and never lets guests or bots add", async () => {
      assertError(await upload("polonius", "x"), "Not allowed for guest users");
      assertError(await upload("bot", "x"), "This endpoint does not accept bot requests.");
      await setRealmGroups(t, { can_add_custom_emoji_group_id: "role:administrators" });
      assertError(await upload("hamlet", "x"), "Insufficient permission");
      assert.equal((await upload("iago", "x")).status, 200);
    });

    it("deactivates for the author or an administrator; the image stays for old messages", async () => {
      await upload("hamlet", "mine");
      const emoji = await byName("mine");
      assertError(await t.as("othello").delete("/realm/emoji/mine"), "Must be an organization administrator or emoji author");
      t.published.length = 0;
      assert.equal((await t.as("hamlet").delete("/realm/emoji/mine")).status, 200);
      assert.equal(eventsOf(t, "realm_emoji", "update").length, 1);
      assert.equal((await list())[String(emoji?.id)].deactivated, true);
      assert.equal((await fetchUrl(t, null, String(emoji?.source_url))).status, 200);
      assertError(await t.as("iago").delete("/realm/emoji/mine"), "Emoji 'mine' does not exist", "BAD_REQUEST", 404);
      await upload("othello", "theirs");
      assert.equal((await t.as("iago").delete("/realm/emoji/theirs")).status, 200);
    });

    describe("permissions per endpoint", () => {
      let n = 0;
      it("GET /realm/emoji", () => checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => t.as(who).get("/realm/emoji")));
      it("POST /realm/emoji/{name}", () => checkPermissions(["desdemona", "iago", "shiva", "hamlet"], (who) => upload(who, `e${++n}`)));
      it("DELETE /realm/emoji/{name}", () =>
        checkPermissions(["desdemona", "iago"], async (who) => {
          const name = `d${++n}`;
          await upload("desdemona", name);
          return t.as(who).delete(`/realm/emoji/${name}`);
        }));
    });
  });
}
