/**
 * Weekly digest emails (issue 19 item 5; Zulip's zerver/lib/digest.py): for users away for more
 * than DIGEST_CUTOFF_DAYS, an email of the hot conversations in their channels and the channels
 * created lately, on the realm's `digest_weekday`, when the realm has `digest_emails_enabled` and
 * the user `enable_digest_emails`.
 *
 * Two steps, as in Zulip (enqueue_emails, then the digest worker):
 * - `enqueueDueDigests`: for each realm whose period is due, mark the period in `digest_runs`
 *   (once per realm and period, whichever process is first) and, in the same transaction, queue one
 *   pending notification of kind "digest" per user away, with the period as its `message_id`;
 * - the notification worker claims and sends those rows as it does missed-message emails
 *   (deliver.ts: lease, send outside any transaction, delete; retried on failure), through
 *   `sendDigestBatch`, which builds the email when it goes and records it in the audit log.
 */
import type { AppDeps } from "../../deps.js";
import { digestSettingsOf } from "../../lib/realm-settings.js";
import { realmUrl } from "../../lib/realm-url.js";
import { settingOf } from "../../lib/user-settings.js";
import { topicNarrow } from "../../lib/topic-links.js";
import { channelSlug } from "../../markdown/channel-links.js";
import {
  collectTopics,
  DIGEST_CUTOFF_SECONDS,
  dueDigestPeriod,
  hotTopics,
  isAwayForDigest,
  RECENT_DIGEST_SECONDS,
} from "../../policy/digest.js";
import { ROLE } from "../../policy/roles.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import {
  claimDigestRun,
  DIGEST_AUDIT_EVENT,
  getChannelsCreatedSince,
  getDigestChannels,
  getDigestMessages,
  listDigestCandidates,
  usersWithDigestSince,
} from "../../store/digests.js";
import { DIGEST_TRIGGER, insertPendingNotifications, type PendingNotificationRow } from "../../store/pending-notifications.js";
import { getLastActiveTimes } from "../../store/presence.js";
import { getRealmById, insertAuditLog, listRealmsWithUserCounts } from "../../store/realms.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getRealmIdOfUser, getUserById, getUsersByIds } from "../../store/users.js";
import { mailTransport, type MailMessage } from "../../mail/transport.js";
import { composeDigestEmail } from "./digest-content.js";
import { unsubscribeHeaders, unsubscribeUrl } from "./unsubscribe-links.js";

/** The most recent messages a digest reads (a bound on the work one email does). */
export const DIGEST_MAX_MESSAGES = 2000;
const DAY = 24 * 60 * 60;

const wantsDigest = (user: Pick<UserRow, "settings">) => settingOf(user.settings, "enable_digest_emails") !== false;

/** Queues one realm's period: false when it was queued before (by this process or another). */
async function enqueueRealmPeriod(deps: AppDeps, tx: Tx, realm: RealmRow, period: number): Promise<number> {
  const now = deps.clock.now();
  if (!(await claimDigestRun(tx, realm.id, period, now))) return -1;
  const candidates = (await listDigestCandidates(tx, realm.id)).filter(wantsDigest);
  const ids = candidates.map((u) => u.id);
  const lastActive = await getLastActiveTimes(tx, ids);
  const recent = await usersWithDigestSince(tx, realm.id, ids, now - RECENT_DIGEST_SECONDS);
  const away = ids.filter((id) => !recent.has(id) && isAwayForDigest(lastActive.get(id) ?? null, now));
  await insertPendingNotifications(
    tx,
    away.map((user_id) => ({ user_id, message_id: period, kind: "digest", trigger: DIGEST_TRIGGER, mentioned_group_id: null, due_at: now })),
  );
  if (away.length > 0) tx.onCommit(() => deps.notifier?.wake(now));
  return away.length;
}

export interface EnqueueOptions {
  /** Only this realm. */
  realmId?: number;
  /** Today's period whatever the realm's weekday (the manage command's --now). */
  now?: boolean;
}

/**
 * Queues the digests of every realm whose period is due (each realm's once); answers, per realm
 * queued now, how many users were queued.
 */
export async function enqueueDueDigests(deps: AppDeps, opts: EnqueueOptions = {}): Promise<Array<{ realm_id: number; period: number; users: number }>> {
  const now = deps.clock.now();
  const realms = (await listRealmsWithUserCounts(readTx(deps.store))).filter((r) => !r.deactivated && (opts.realmId === undefined || r.id === opts.realmId));
  const queued: Array<{ realm_id: number; period: number; users: number }> = [];
  for (const realm of realms) {
    const { enabled, weekday } = digestSettingsOf(realm);
    const period = opts.now ? Math.floor(now / DAY) : dueDigestPeriod(now, weekday);
    if (!enabled || period === null) continue;
    const users = await transaction(deps.store, (tx) => enqueueRealmPeriod(deps, tx, realm, period));
    if (users >= 0) queued.push({ realm_id: realm.id, period, users });
  }
  return queued;
}

/** The digest of one user, or null when there is too little to tell (Zulip's enough_traffic). */
export async function composeDigest(deps: AppDeps, tx: Tx, realm: RealmRow, user: UserRow, period: number): Promise<MailMessage | null> {
  const now = deps.clock.now();
  const since = now - DIGEST_CUTOFF_SECONDS;
  const url = realmUrl(deps.config.externalHost, realm.string_id);
  const channels = await getDigestChannels(tx, user.id);
  const channelById = new Map(channels.map((c) => [Number(c.recipient_id), c]));
  const rows = await getDigestMessages(tx, user.id, channels, since, DIGEST_MAX_MESSAGES);
  const senders = new Map((await getUsersByIds(tx, realm.id, [...new Set(rows.map((m) => m.sender_id))])).map((u) => [u.id, u]));
  const messages = rows.map((m) => ({
    ...m,
    channelId: channelById.get(m.recipient_id)!.id,
    topic: m.subject,
    senderName: senders.get(m.sender_id)?.full_name ?? "Unknown user",
    byBot: senders.get(m.sender_id)?.is_bot ?? false,
  }));
  const hot = hotTopics(collectTopics(messages)).map((t) => {
    const channel = channels.find((c) => c.id === t.channelId)!;
    return {
      channelName: channel.name,
      topic: t.topic,
      url: `${url}/${topicNarrow(channel.id, channel.name, t.topic)}`,
      participants: [...t.senders].sort(),
      samples: t.samples.map((m) => ({ senderName: m.senderName, html: m.rendered_content })),
      moreCount: Math.max(0, t.humanMessages - t.samples.length),
    };
  });
  // Zulip's gather_new_streams: public channels for those who may see them, web-public ones for guests.
  const newChannels = (await getChannelsCreatedSince(tx, realm.id, since))
    .filter((c) => (user.role === ROLE.GUEST ? c.is_web_public : !c.invite_only))
    .map((c) => ({ name: c.name, url: `${url}/#narrow/channel/${channelSlug(c.id, c.name)}` }));
  if (hot.length === 0 && newChannels.length === 0) return null;
  const unsubscribe = unsubscribeUrl(deps, realm, user, "digest");
  const email = composeDigestEmail({ realmName: realm.name, realmUrl: url, hot, newChannels, unsubscribeUrl: unsubscribe });
  return {
    from: `"${realm.name.replace(/["\\]/g, "")} digest" <${deps.config.mailFrom}>`,
    to: user.delivery_email,
    subject: email.subject,
    text: email.text,
    html: email.html,
    date: new Date(now * 1000),
    messageKey: `digest-${user.id}-${period}`,
    headers: unsubscribeHeaders(unsubscribe),
  };
}

/**
 * Sends a claimed digest row (one per user and period). The settings are read again: a realm or
 * user who turned digests off since the period was queued gets none. Throws when the transport
 * fails (the row is then tried again).
 */
export async function sendDigestBatch(deps: AppDeps, rows: readonly PendingNotificationRow[]): Promise<void> {
  const tx = readTx(deps.store);
  const row = rows[rows.length - 1];
  const realmId = await getRealmIdOfUser(tx, row.user_id);
  const realm = realmId === null ? undefined : await getRealmById(tx, realmId);
  const user = realm && !realm.deactivated ? await getUserById(tx, realm.id, row.user_id) : undefined;
  if (!realm || !user || !user.is_active || !digestSettingsOf(realm).enabled || !wantsDigest(user)) return;
  const mail = await composeDigest(deps, tx, realm, user, Number(row.message_id));
  if (!mail) return;
  await mailTransport(deps.config).send(mail);
  await transaction(deps.store, (t) =>
    insertAuditLog(t, { realm_id: realm.id, event_type: DIGEST_AUDIT_EVENT, event_time: deps.clock.now(), modified_user_id: user.id, extra_data: { period: Number(row.message_id) } }),
  );
}

/** How often a process looks for due digest periods (the worker wakes at least once a minute). */
export const DIGEST_LOOK_SECONDS = 300;
const lastLook = new WeakMap<AppDeps, number>();

/** enqueueDueDigests, at most once per DIGEST_LOOK_SECONDS per process: the notification worker's round calls it. */
export async function lookForDueDigests(deps: AppDeps): Promise<void> {
  const now = deps.clock.now();
  const last = lastLook.get(deps);
  if (last !== undefined && now - last < DIGEST_LOOK_SECONDS && now >= last) return;
  lastLook.set(deps, now);
  await enqueueDueDigests(deps);
}
