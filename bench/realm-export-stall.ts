/**
 * Realm export on SQLite with 30,000 channel messages and 240,000 user_messages rows (8
 * subscribers each): total time of writeRealmArchive and the longest event-loop stall (a 10 ms
 * setInterval probe, plus perf_hooks' monitorEventLoopDelay). Run: npx tsx bench/realm-export-stall.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { writeRealmArchive } from "../src/actions/realm-export/write-archive.js";
import { analyze, bulkInsertChannelMessages } from "../src/store/bulk-seed.js";
import { getChannelById } from "../src/store/channels.js";
import { readTx, transaction } from "../src/store/db.js";
import { getRealmById } from "../src/store/realms.js";
import { createTestRealm } from "../test/helpers/fixtures.js";
import { createChannel } from "../test/helpers/messages.js";

const MESSAGES = Number(process.env.MESSAGES ?? 30_000);
const KIND = (process.env.KIND ?? "full_without_consent") as "public" | "full_without_consent";

const t = await createTestRealm("sqlite");
const everyone = ["iago", "shiva", "hamlet", "othello", "cordelia", "polonius", "bot", "desdemona"] as const;
const channelId = await createChannel(t, "Bench", [...everyone]);
await transaction(t.deps.store, async (tx) => {
  const channel = await getChannelById(tx, t.realmId, channelId);
  const senders = [t.users.iago.id, t.users.hamlet.id, t.users.othello.id];
  const rows = Array.from({ length: MESSAGES }, (_, i) => ({ senderId: senders[i % 3], topic: `topic ${i % 50}`, content: `message ${i} with some text`, dateSent: 1_700_000_000 + i }));
  await bulkInsertChannelMessages(tx, t.realmId, channel?.recipient_id as number, rows);
  await analyze(tx);
});
const realm = await getRealmById(readTx(t.deps.store), t.realmId);
const dir = mkdtempSync(join(tmpdir(), "export-bench-"));
let longest = 0;
let last = performance.now();
const probe = setInterval(() => {
  const now = performance.now();
  longest = Math.max(longest, now - last - 10);
  last = now;
}, 10);
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
const started = performance.now();
const { manifest } = await writeRealmArchive(t.deps.store, t.deps.config, realm!, KIND, t.clock.now(), join(dir, "export.tar.gz"));
const total = performance.now() - started;
histogram.disable();
clearInterval(probe);
console.log(JSON.stringify({
  kind: KIND, messages: manifest.tables.messages, user_messages: manifest.tables.user_messages,
  total_s: +(total / 1000).toFixed(2), longest_stall_ms: +longest.toFixed(1), max_delay_ms: +(histogram.max / 1e6).toFixed(1),
  p99_delay_ms: +(histogram.percentile(99) / 1e6).toFixed(1),
}));
rmSync(dir, { recursive: true, force: true });
await t.close();
