/**
 * realm_emoji events per the individual_emoji_changes capability (FL 491; issue 15): declaring
 * clients (the mobile app) hear the one emoji added (op add) and the one property changed
 * (op update_one); the others still get the whole list (op update) on each change.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { encodePng } from "../../src/lib/png.js";
import { basicAuth } from "../helpers/http.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, multipartBody, type UploadRealm } from "../helpers/uploads.js";

const PNG = encodePng(2, 2, Buffer.alloc(12, 0x80));

for (const kind of STORE_KINDS) {
  describe(`realm_emoji events [${kind}]`, () => {
    let t: UploadRealm;
    before(async () => {
      t = await createUploadRealm(kind);
    });
    after(() => t.close());

    const upload = async (name: string) => {
      const { payload, contentType } = multipartBody([{ filename: "img.png", content: PNG, contentType: "image/png" }]);
      const res = await t.app.inject({
        method: "POST",
        url: `/api/v1/realm/emoji/${name}`,
        headers: { host: t.host, authorization: basicAuth(t.users.hamlet), "content-type": contentType },
        payload,
      });
      assert.equal(res.statusCode, 200, res.body);
    };
    const events = async (queueId: string) =>
      (await t.as("othello").get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any

    it("sends add and update_one to clients with the capability, the whole list to the others", async () => {
      const modern = await t.as("othello").post("/register", { event_types: ["realm_emoji"], client_capabilities: { individual_emoji_changes: true } });
      const legacy = await t.as("othello").post("/register", { event_types: ["realm_emoji"] });
      await upload("green_tick");
      const listed = (await t.as("othello").get("/realm/emoji")).body.emoji as Record<string, Record<string, unknown>>;
      const [id, emoji] = Object.entries(listed).find(([, e]) => e.name === "green_tick")!;
      assert.equal((await t.as("hamlet").delete("/realm/emoji/green_tick")).status, 200);

      const got = await events(modern.body.queue_id);
      assert.deepEqual(
        got.map(({ id: _, ...e }) => e),
        [
          { type: "realm_emoji", op: "add", emoji },
          { type: "realm_emoji", op: "update_one", emoji_id: id, data: { deactivated: true } },
        ],
      );
      // The mobile app's parser reads these fields of an added emoji (RealmEmojiItem).
      for (const key of ["id", "name", "source_url", "deactivated"]) assert.ok(key in got[0].emoji, key);

      const old = await events(legacy.body.queue_id);
      assert.deepEqual(old.map((e) => e.op), ["update", "update"]);
      assert.equal(old[0].realm_emoji[id].deactivated, false);
      assert.equal(old[1].realm_emoji[id].deactivated, true);
      for (const e of [...got, ...old]) assert.equal(e.only_with ?? e.only_without, undefined, "routing fields stay on the server");
    });
  });
}
