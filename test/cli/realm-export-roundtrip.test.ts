/**
 * A realm export read back by the importer (docs/EXPORT-FORMAT.md): a realm with users, public and
 * private channels, subscriptions, channel messages, direct messages, reactions (Unicode and
 * custom), an uploaded file, custom emoji, a user group, a custom profile field and changed
 * settings is exported, imported under a new subdomain on the same store, and the new realm answers
 * the API exactly as the old one did (ids aside). On SQLite always, on PostgreSQL when configured.
 * The public and consent kinds leave out what they must.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { importRealmArchive } from "../../src/actions/realm-export/import-archive.js";
import { writeRealmArchive } from "../../src/actions/realm-export/write-archive.js";
import { readTx } from "../../src/store/db.js";
import type { ExportKind } from "../../src/store/realm-export-tables.js";
import { getRealmById } from "../../src/store/realms.js";
import { EXTERNAL_HOST, type Client, type TestUser } from "../helpers/fixtures.js";
import { basicAuth } from "../helpers/http.js";
import { pngImage } from "../helpers/images.js";
import { STORE_KINDS } from "../helpers/stores.js";
import { createUploadRealm, fetchUrl, multipartBody, uploadFile, type UploadRealm } from "../helpers/uploads.js";

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What a realm looks like through the API, with every id replaced by what it names. */
async function snapshot(as: (email: string) => Client) {
  const owner = as("desdemona@zulip.test");
  const users = (await owner.get("/users")).body.members as Body[];
  const emailOf = new Map(users.map((u) => [u.user_id as number, u.email as string]));
  const channels = (await owner.get("/streams", { include_all: true })).body.streams as Body[];
  const nameOf = new Map(channels.map((c) => [c.stream_id as number, c.name as string]));
  const messagesOf = async (email: string) =>
    ((await as(email).get("/messages", { anchor: "newest", num_before: 100, num_after: 0, apply_markdown: false })).body.messages as Body[]).map((m) => ({
      sender: m.sender_email,
      to: m.type === "stream" ? nameOf.get(m.stream_id) : (m.display_recipient as Body[]).map((r) => r.email).sort(),
      topic: m.subject,
      // The realm's id is in upload links: it differs, by design.
      content: (m.content as string).replace(/\/user_uploads\/\d+\//g, "/user_uploads/REALM/"),
      flags: [...m.flags].sort(),
      reactions: (m.reactions as Body[]).map((r) => `${r.emoji_name}:${r.reaction_type}:${emailOf.get(r.user_id)}`).sort(),
    }));
  const groups = ((await owner.get("/user_groups")).body.user_groups as Body[])
    .filter((g) => !g.is_system_group)
    .map((g) => ({ name: g.name, description: g.description, members: (g.members as number[]).map((id) => emailOf.get(id)).sort() }));
  const subscriptions = ((await as("hamlet@zulip.test").get("/users/me/subscriptions")).body.subscriptions as Body[]).map((s) => [s.name, s.color, s.pin_to_top]);
  const emoji = Object.values((await owner.get("/realm/emoji")).body.emoji as Record<string, Body>).map((e) => [e.name, emailOf.get(e.author_id), e.deactivated]);
  const settings = (await as("hamlet@zulip.test").post("/register", { fetch_event_types: ["user_settings"] })).body.user_settings;
  const attachments = ((await as("hamlet@zulip.test").get("/attachments")).body.attachments as Body[]).map((a) => [a.name, a.size, a.message_ids.length]);
  const fields = (await owner.get("/realm/profile_fields")).body.custom_fields.map((f: Body) => [f.name, f.type]);
  const profile = (await owner.get(`/users/${users.find((u) => u.email === "hamlet@zulip.test")!.user_id}`, { include_custom_profile_fields: true })).body.user.profile_data;
  return {
    users: users.map((u) => [u.email, u.full_name, u.role, u.is_bot, u.is_active]).sort(),
    channels: channels.map((c) => [c.name, c.description, c.invite_only]).sort(),
    hamlet: await messagesOf("hamlet@zulip.test"),
    othello: await messagesOf("othello@zulip.test"),
    groups, subscriptions, emoji, settings, attachments, fields,
    profile: Object.values(profile as Record<string, Body>).map((v) => (JSON.parse(v.value as string) as number[]).map((id) => emailOf.get(id))),
  };
}

for (const kind of STORE_KINDS) {
  describe(`realm export and import [${kind}]`, () => {
    let t: UploadRealm;
    let dir: string;
    let uploadUrl: string;
    let viewFragments: string[] = [];
    let sourceIds = { design: 0, othello: 0, cordelia: 0, message: 0 };

    const clientFor = (host: string, users: Map<string, TestUser>) => (email: string) => t.as(users.get(email)!, { host });
    const sourceUsers = () => new Map(Object.values(t.users).map((u) => [u.email, u]));
    async function importedUsers(realmId: number): Promise<Map<string, TestUser>> {
      const rows = await t.deps.store.db.selectFrom("users").selectAll().where("realm_id", "=", realmId).execute();
      return new Map(rows.map((u) => [u.delivery_email, { id: u.id, email: u.email, apiKey: u.api_key, fullName: u.full_name, role: u.role }]));
    }
    async function exportAndImport(exportKind: ExportKind, subdomain: string) {
      const realm = (await getRealmById(readTx(t.deps.store), t.realmId))!;
      const file = join(dir, `${subdomain}.tar.gz`);
      const written = await writeRealmArchive(t.deps.store, t.deps.config, realm, exportKind, t.clock.now(), file);
      const imported = await importRealmArchive(t.deps.store, t.deps.config, file, { subdomain });
      return { written, imported, host: `${subdomain}.${EXTERNAL_HOST}` };
    }

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), "parley-export-test-"));
      t = await createUploadRealm(kind);
      const ok = (res: { status: number; body: Body }) => {
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body;
      };
      const { users } = t;
      ok(await t.as("iago").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "design", description: "Pixels" }]), principals: JSON.stringify([users.hamlet.id, users.othello.id]) }));
      ok(await t.as("iago").post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "secret" }]), invite_only: true, principals: JSON.stringify([users.hamlet.id]) }));
      ok(await t.as("hamlet").patch("/settings", { emojiset: "text", allow_private_data_export: true }));
      const { payload, contentType } = multipartBody([{ filename: "parrot.png", content: await pngImage(8, 8), contentType: "image/png" }]);
      const emoji = await t.app.inject({ method: "POST", url: "/api/v1/realm/emoji/green_tick", headers: { host: t.host, authorization: basicAuth(users.hamlet), "content-type": contentType }, payload });
      assert.equal(emoji.statusCode, 200, emoji.body);
      uploadUrl = (await uploadFile(t, "hamlet", "notes.txt", "the plan, in full")).url;
      const design = ok(await t.as("hamlet").post("/messages", { type: "stream", to: "design", topic: "plans", content: `See [notes](${uploadUrl}) @**Othello, the Moor of Venice**` })).id;
      ok(await t.as("hamlet").post("/messages", { type: "stream", to: "secret", topic: "hush", content: "private channel words" }));
      const dm = ok(await t.as("othello").post("/messages", { type: "direct", to: JSON.stringify([users.hamlet.id]), content: "a direct word" })).id;
      ok(await t.as("othello").post("/messages", { type: "direct", to: JSON.stringify([users.hamlet.id, users.cordelia.id]), content: "to a group" }));
      ok(await t.as("othello").post(`/messages/${design}/reactions`, { emoji_name: "smile" }));
      ok(await t.as("othello").post(`/messages/${design}/reactions`, { emoji_name: "green_tick" }));
      ok(await t.as("hamlet").post(`/messages/${dm}/reactions`, { emoji_name: "heart" }));
      ok(await t.as("hamlet").post("/messages/flags", { messages: JSON.stringify([dm]), op: "add", flag: "starred" }));
      ok(await t.as("iago").post("/user_groups/create", { name: "actors", description: "On stage", members: JSON.stringify([users.hamlet.id, users.othello.id]) }));
      const field = ok(await t.as("iago").post("/realm/profile_fields", { name: "Mentor", field_type: 6 })).id;
      ok(await t.as("hamlet").patch("/users/me/profile_data", { data: JSON.stringify([{ id: field, value: [users.othello.id] }]) }));
      // Navigation views name channels, users and messages by id in their fragments.
      const designId = ok(await t.as("hamlet").get("/get_stream_id", { stream: "design" })).stream_id as number;
      viewFragments = [
        `narrow/channel/${designId}-design/topic/plans`,
        `narrow/dm/${users.othello.id},${users.cordelia.id}-group`,
        `narrow/-sender/${users.othello.id}/near/${design}`,
        "narrow/has/link",
      ];
      for (const [i, fragment] of viewFragments.entries()) ok(await t.as("hamlet").post("/navigation_views", { fragment, name: `view ${i}`, is_pinned: true }));
      sourceIds = { design: designId, othello: users.othello.id, cordelia: users.cordelia.id, message: design };
    });
    after(async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("imports a full export into a new realm that answers like the original", async () => {
      const before = await snapshot(clientFor(t.host, sourceUsers()));
      const { written, imported, host } = await exportAndImport("full_without_consent", "copy");
      assert.equal(written.manifest.tables.messages, 4);
      assert.equal(written.manifest.uploads.missing, 0);
      assert.deepEqual(Object.values(imported.dropped).filter((n) => n > 0), []);
      assert.notEqual(imported.realm_id, t.realmId);
      const users = await importedUsers(imported.realm_id);
      const afterImport = await snapshot(clientFor(host, users));
      assert.deepEqual(afterImport, before);

      // Ids inside content moved with the rows: the mention names the new Othello, the file is the new realm's.
      const as = clientFor(host, users);
      const [design] = (await as("hamlet@zulip.test").get("/messages", { anchor: "oldest", num_before: 0, num_after: 1 })).body.messages as Body[];
      assert.match(design.content, new RegExp(`data-user-id="${users.get("othello@zulip.test")!.id}"`));
      const newUrl = uploadUrl.replace(`/user_uploads/${t.realmId}/`, `/user_uploads/${imported.realm_id}/`);
      assert.ok((design.content as string).includes(newUrl), design.content);
      const file = await t.app.inject({ method: "GET", url: newUrl, headers: { host, authorization: basicAuth(users.get("hamlet@zulip.test")!) } });
      assert.equal(file.statusCode, 200);
      assert.equal(file.body, "the plan, in full");
      // The imported messages are in the search index (SQLite's is kept by the store, not the database).
      const found = await as("hamlet@zulip.test").get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: "search", operand: "direct" }]) });
      assert.deepEqual((found.body.messages as Body[]).map((m) => m.content), ["<p>a direct word</p>"]);
      // Navigation views keep pointing at the same channel, users and message under their new ids.
      const newDesign = (await as("hamlet@zulip.test").get("/get_stream_id", { stream: "design" })).body.stream_id as number;
      const newOthello = users.get("othello@zulip.test")!.id;
      const newCordelia = users.get("cordelia@zulip.test")!.id;
      const views = (await as("hamlet@zulip.test").get("/navigation_views")).body.navigation_views as Body[];
      assert.deepEqual(views.map((v) => v.fragment).sort(), [
        `narrow/channel/${newDesign}-design/topic/plans`,
        `narrow/dm/${newOthello},${newCordelia}-group`,
        `narrow/-sender/${newOthello}/near/${design.id}`,
        "narrow/has/link",
      ].sort());
      assert.notEqual(newDesign, sourceIds.design);
      assert.notEqual(design.id, sourceIds.message);
      assert.equal(viewFragments.length, 4);
      // Credentials never travel: the imported users have new API keys.
      assert.notEqual(users.get("hamlet@zulip.test")!.apiKey, t.users.hamlet.apiKey);
      assert.equal((await fetchUrl(t, "hamlet", uploadUrl)).status, 200);
    });

    it("leaves private data out of a public export, and keeps only consenting users' in a consent export", async () => {
      const pub = await exportAndImport("public", "public-copy");
      assert.equal(pub.written.manifest.tables.messages, 1);
      assert.equal(pub.written.manifest.tables.user_messages, 0);
      const consent = await exportAndImport("full_with_consent", "consent-copy");
      // Hamlet consented: his direct messages and the private channel's message are in; Othello's private data is not.
      assert.equal(consent.written.manifest.tables.messages, 4);
      const users = await importedUsers(consent.imported.realm_id);
      const hamlet = await snapshot(clientFor(consent.host, users)).then((s) => s.hamlet);
      const link = uploadUrl.replace(`/${t.realmId}/`, "/REALM/");
      assert.deepEqual(hamlet.map((m) => m.content).sort(), ["a direct word", "private channel words", "to a group", `See [notes](${link}) @**Othello, the Moor of Venice**`].sort());
      const othelloRows = await t.deps.store.db.selectFrom("user_messages").select("message_id").where("user_id", "=", users.get("othello@zulip.test")!.id).execute();
      assert.equal(othelloRows.length, 0);
    });

    it("refuses a taken subdomain and a file that is not an export, importing nothing", async () => {
      const realm = (await getRealmById(readTx(t.deps.store), t.realmId))!;
      const file = join(dir, "again.tar.gz");
      await writeRealmArchive(t.deps.store, t.deps.config, realm, "public", t.clock.now(), file);
      const realmsBefore = await t.deps.store.db.selectFrom("realms").select("id").execute();
      await assert.rejects(importRealmArchive(t.deps.store, t.deps.config, file, { subdomain: "zulip" }), /already in use/);
      await assert.rejects(importRealmArchive(t.deps.store, t.deps.config, join(dir, "nothing.tar.gz")), /no file/);
      await assert.rejects(importRealmArchive(t.deps.store, t.deps.config, file, { subdomain: "Not a subdomain!" }), /invalid subdomain/);
      assert.deepEqual(await t.deps.store.db.selectFrom("realms").select("id").execute(), realmsBefore);
    });
  });
}
