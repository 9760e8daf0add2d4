/** Channel folders (spec 4.5): create, list, update, archive and reorder, on every store. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { transaction } from "../../src/store/db.js";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { CALLERS, assertError, checkPermissions } from "../helpers/org.js";
import { STORE_KINDS } from "../helpers/stores.js";

const ADMINS: UserName[] = ["desdemona", "iago"];

for (const kind of STORE_KINDS) {
  describe(`channel folders [${kind}]`, () => {
    let t: TestRealm;
    beforeEach(async () => {
      t = await createTestRealm(kind);
    });
    afterEach(() => t.close());

    async function create(name: string, description = ""): Promise<number> {
      const res = await t.as("iago").post("/channel_folders/create", { name, description });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.channel_folder_id;
    }

    it("creates folders with rendered descriptions and lists them", async () => {
      t.published.length = 0;
      const id = await create("Engineering", "The **builders**");
      const folders = (await t.as("polonius").get("/channel_folders")).body.channel_folders;
      assert.deepEqual(folders, [
        {
          id,
          name: "Engineering",
          description: "The **builders**",
          rendered_description: "<p>The <strong>builders</strong></p>",
          creator_id: t.users.iago.id,
          date_created: t.clock.seconds,
          is_archived: false,
          order: 0,
        },
      ]);
      const event = t.published.find((e) => e.event.type === "channel_folder");
      assert.deepEqual(event?.event, { type: "channel_folder", op: "add", channel_folder: folders[0] });
      assert.ok(event?.userIds.includes(t.users.polonius.id));
    });

    it("refuses empty, overlong, unprintable and duplicate names", async () => {
      await create("Taken");
      assertError(await t.as("iago").post("/channel_folders/create", { name: "  ", description: "" }), "Channel folder name can't be empty.");
      assertError(await t.as("iago").post("/channel_folders/create", { name: "TAKEN", description: "" }), "Channel folder name already in use");
      // Compared as the unique index compares, not by JavaScript's lower case (found by fuzzing: a 500).
      await create("İzmir");
      assertError(await t.as("iago").post("/channel_folders/create", { name: "İzmir", description: "" }), "Channel folder name already in use");
      assertError(await t.as("iago").post("/channel_folders/create", { name: "bad\u0007name", description: "" }), "Invalid character in channel folder name, at position 4.");
      assertError(
        await t.as("iago").post("/channel_folders/create", { name: "n".repeat(61), description: "" }),
        "name is too long (limit: 60 characters)",
        "REQUEST_VARIABLE_INVALID",
      );
      assertError(
        await t.as("iago").post("/channel_folders/create", { name: "Long", description: "d".repeat(1025) }),
        "description is too long (limit: 1024 characters)",
        "REQUEST_VARIABLE_INVALID",
      );
    });

    it("renames, describes, archives and unarchives", async () => {
      const id = await create("Old");
      await create("Other");
      t.published.length = 0;
      assert.equal((await t.as("iago").patch(`/channel_folders/${id}`, { name: "New", description: "*fresh*" })).status, 200);
      assert.deepEqual(t.published.find((e) => e.event.type === "channel_folder")?.event, {
        type: "channel_folder",
        op: "update",
        channel_folder_id: id,
        data: { name: "New", description: "*fresh*", rendered_description: "<p><em>fresh</em></p>" },
      });
      assertError(await t.as("iago").patch(`/channel_folders/${id}`, { name: "other" }), "Channel folder name already in use");
      assertError(await t.as("iago").patch(`/channel_folders/${id}`, { name: "" }), "Channel folder name can't be empty.");
      assertError(await t.as("iago").patch("/channel_folders/99999", { name: "X" }), "Invalid channel folder ID");
      assert.equal((await t.as("iago").patch(`/channel_folders/${id}`, { is_archived: true })).status, 200);
      assert.deepEqual((await t.as("hamlet").get("/channel_folders")).body.channel_folders.map((f: { name: string }) => f.name), ["Other"]);
      const all = (await t.as("hamlet").get("/channel_folders", { include_archived: true })).body.channel_folders;
      assert.equal(all.find((f: { id: number }) => f.id === id).is_archived, true);
      assert.equal((await t.as("iago").patch(`/channel_folders/${id}`, { is_archived: false })).status, 200);
      assert.equal((await t.as("hamlet").get("/channel_folders")).body.channel_folders.length, 2);
    });

    it("archives only folders without channels", async () => {
      const id = await create("Busy");
      await transaction(t.deps.store, (tx) =>
        tx.db.insertInto("channels").values({ realm_id: t.realmId, name: "in folder", date_created: 1, creator_id: null, recipient_id: null, message_retention_days: null, folder_id: id, first_message_id: null }).execute(),
      );
      assertError(await t.as("iago").patch(`/channel_folders/${id}`, { is_archived: true }), "You need to remove all the channels from this folder to archive it.");
    });

    it("reorders folders", async () => {
      const a = await create("A");
      const b = await create("B");
      const c = await create("C");
      assert.equal((await t.as("iago").patch("/channel_folders", { order: [c, a, b] })).status, 200);
      assert.deepEqual((await t.as("hamlet").get("/channel_folders")).body.channel_folders.map((f: { id: number }) => f.id), [c, a, b]);
      assertError(await t.as("iago").patch("/channel_folders", { order: [a, b] }), "Invalid order mapping.");
    });

    it("lets everyone list folders and only administrators change them", async () => {
      await checkPermissions(CALLERS, (caller) => t.as(caller).get("/channel_folders"));
      await checkPermissions(ADMINS, (caller) => t.as(caller).post("/channel_folders/create", { name: `By ${caller}`, description: "" }));
      const id = await create("Shared");
      await checkPermissions(ADMINS, (caller) => t.as(caller).patch(`/channel_folders/${id}`, { description: caller }));
      const ids = (await t.as("iago").get("/channel_folders")).body.channel_folders.map((f: { id: number }) => f.id);
      await checkPermissions(ADMINS, (caller) => t.as(caller).patch("/channel_folders", { order: caller === "iago" ? ids : [...ids].reverse() }));
    });
  });
}
