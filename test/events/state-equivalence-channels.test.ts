/**
 * State equivalence for channel administration (issue 5): creating channels, changing their
 * settings (privacy changes show or hide a channel), archiving and unarchiving, default channels
 * and channel folders. Viewers include people who must hear nothing: guests for channels they
 * are not in, members for a private channel.
 */
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { systemGroupId } from "../helpers/channels.js";
import { createChannel } from "../helpers/messages.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { LEGACY_LISTS_REGISTER, ensureNotificationBot, verifyAction } from "./verify-action.js";

for (const kind of STORE_KINDS) {
  describe(`state equivalence: channel administration [${kind}]`, () => {
    let t: TestRealm;
    before(async () => {
      t = await createTestRealm(kind);
      await ensureNotificationBot(t);
    });
    after(() => t.close());

    const ids = (...names: Array<"iago" | "hamlet" | "othello" | "polonius">) => names.map((n) => t.users[n].id);
    const update = (id: number, params: Record<string, unknown>, who: "iago" | "desdemona" = "iago") => () => t.as(who).patch(`/streams/${id}`, params);

    it("creating a public channel: everyone but guests outside it sees it", async () => {
      const create = () => t.as("iago").post("/channels/create", { name: "Agora", subscribers: ids("iago", "hamlet") });
      await verifyAction(t, ["iago", "hamlet", "cordelia", "polonius"], create, {
        expect: { hamlet: ["stream/create", "subscription/add"], cordelia: ["stream/create", "subscription/peer_add"], polonius: [] },
      });
    });

    it("creating a private channel: subscribers and administrators only", async () => {
      const create = () => t.as("hamlet").post("/channels/create", { name: "Cabal", subscribers: ids("hamlet", "othello"), invite_only: true });
      await verifyAction(t, ["hamlet", "othello", "desdemona", "cordelia", "polonius"], create, {
        expect: { othello: ["stream/create", "subscription/add"], desdemona: ["stream/create", "subscription/peer_add"], cordelia: [], polonius: [] },
      });
    });

    it("renaming, describing and setting policies of a public channel reach all who see it", async () => {
      const id = await createChannel(t, "Forum", ["iago", "hamlet", "polonius"]);
      const viewers = ["iago", "cordelia", "polonius"] as const;
      await verifyAction(t, viewers, update(id, { new_name: "Forum 2", description: "**bold** talk" }), {
        expect: { cordelia: ["stream/update", "stream/update"] },
      });
      await verifyAction(t, viewers, update(id, { topics_policy: "disable_empty_topic" }));
      await verifyAction(t, viewers, update(id, { message_retention_days: 30 }, "desdemona"));
      const admins = await systemGroupId(t, "role:administrators");
      await verifyAction(t, viewers, update(id, { can_send_message_group: { new: admins } }));
      await verifyAction(t, viewers, update(id, { can_remove_subscribers_group: { new: { direct_members: [t.users.hamlet.id], direct_subgroups: [admins] } } }));
    });

    it("changing a private channel reaches its subscribers and administrators, never other members", async () => {
      const id = await createChannel(t, "Vault", ["iago", "hamlet"], { invite_only: true });
      await verifyAction(t, ["hamlet", "desdemona", "cordelia"], update(id, { description: "hidden" }), {
        expect: { hamlet: ["stream/update"], desdemona: ["stream/update"], cordelia: [] },
      });
    });

    it("making a channel private hides it from non-subscribers; making it public shows it again", async () => {
      const id = await createChannel(t, "Square", ["iago", "hamlet"]);
      await verifyAction(t, ["hamlet", "cordelia", "desdemona"], update(id, { is_private: true }), {
        expect: { hamlet: ["stream/update"], cordelia: ["stream/delete"], desdemona: ["stream/update"] },
      });
      await verifyAction(t, ["hamlet", "cordelia", "polonius"], update(id, { is_private: false, history_public_to_subscribers: true }), {
        expect: { cordelia: ["stream/create", "subscription/peer_add"], polonius: [] },
      });
    });

    // Subscribers also get Notification Bot's notice of each change, posted in the channel; when it
    // is the channel's first message, the others that keep the archived channel get its id.
    it("archiving and unarchiving: clients with archived_channels keep the channel, marked archived", async () => {
      const id = await createChannel(t, "Attic", ["iago", "hamlet"]);
      const archive = () => t.as("iago").delete(`/streams/${id}`);
      await verifyAction(t, ["hamlet", "cordelia", "polonius"], archive, {
        expect: { hamlet: ["stream/update", "message"], cordelia: ["stream/update", "stream/update"], polonius: [] },
      });
      await verifyAction(t, ["hamlet", "cordelia", "polonius"], update(id, { description: "dusty" }), { expect: { hamlet: ["stream/update"], polonius: [] } });
      await verifyAction(t, ["hamlet", "cordelia", "polonius"], update(id, { is_archived: false }), {
        expect: { hamlet: ["stream/update", "message"], cordelia: ["stream/update"], polonius: [] },
      });
      const hidden = await createChannel(t, "Crypt", ["iago"], { invite_only: true });
      await verifyAction(t, ["iago", "hamlet", "desdemona"], () => t.as("iago").delete(`/streams/${hidden}`), {
        expect: { iago: ["stream/update", "message"], hamlet: [], desdemona: ["stream/update", "stream/update"] },
      });
    });

    it("archiving and unarchiving: older clients drop the channel and get it back whole", async () => {
      const id = await createChannel(t, "Cellar", ["iago", "hamlet"]);
      const legacy = { register: LEGACY_LISTS_REGISTER };
      await verifyAction(t, ["hamlet", "cordelia", "polonius"], () => t.as("iago").delete(`/streams/${id}`), {
        ...legacy,
        expect: { hamlet: ["stream/delete", "message"], cordelia: ["stream/delete"], polonius: [] },
      });
      await verifyAction(t, ["hamlet", "cordelia"], update(id, { description: "dusty" }), { ...legacy, expect: { hamlet: [], cordelia: [] } });
      await verifyAction(t, ["hamlet", "cordelia", "polonius"], update(id, { is_archived: false }), {
        ...legacy,
        expect: {
          hamlet: ["stream/create", "subscription/peer_add", "subscription/add", "message"],
          cordelia: ["stream/create", "subscription/peer_add"],
          polonius: [],
        },
      });
    });

    it("default channels: members hear of changes, guests do not", async () => {
      const id = await createChannel(t, "Lobby", ["iago"]);
      await verifyAction(t, ["hamlet", "polonius"], () => t.as("iago").post("/default_streams", { stream_id: id }), {
        expect: { hamlet: ["default_streams"], polonius: [] },
      });
      await verifyAction(t, ["hamlet", "polonius"], update(id, { is_default_stream: false }), { expect: { polonius: [] } });
    });

    it("channel folders: create, update, archive, reorder; a channel moves into a folder", async () => {
      const created = await t.as("iago").post("/channel_folders/create", { name: "Work", description: "*serious*" });
      const folderId = created.body.channel_folder_id;
      await verifyAction(t, ["hamlet", "polonius"], () => t.as("iago").post("/channel_folders/create", { name: "Play", description: "" }), {
        expect: { hamlet: ["channel_folder/add"], polonius: ["channel_folder/add"] },
      });
      await verifyAction(t, ["hamlet"], () => t.as("iago").patch(`/channel_folders/${folderId}`, { name: "Labour", description: "hard" }));
      const id = await createChannel(t, "Desk", ["iago", "hamlet"]);
      await verifyAction(t, ["hamlet", "cordelia"], update(id, { folder_id: folderId }));
      await verifyAction(t, ["hamlet"], update(id, { folder_id: null }));
      await verifyAction(t, ["hamlet"], () => t.as("iago").patch(`/channel_folders/${folderId}`, { is_archived: true }));
      const order = (await t.as("iago").get("/channel_folders", { include_archived: true })).body.channel_folders.map((f: { id: number }) => f.id).reverse();
      await verifyAction(t, ["hamlet"], () => t.as("iago").patch("/channel_folders", { order }));
    });
  });
}
