/**
 * Reporting a message (Zulip's report-message, FL 382; report types FL 435) to the realm's
 * moderation request channel (FL 331). Notification Bot posts the report there in a topic named
 * after the reported user (or the empty topic, where the channel allows only that), worded as
 * zerver/lib/message_report.py words it: who reported whom, when the message was sent and, for a
 * direct message, to whom; the reason and explanation quoted; the message itself behind a spoiler
 * with a link to it. The reporter then gets Notification Bot's confirmation as a direct message.
 */
import { accessMessage } from "../../access/messages.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { globalTime, unusedFence } from "../../lib/notice-syntax.js";
import { realmSetting } from "../../lib/realm-settings.js";
import { realmUrl } from "../../lib/realm-url.js";
import { directMessageUrl, messageLinkSyntax, messageUrl } from "../../lib/topic-links.js";
import { getChannelById, getRecipientMembers } from "../../store/channels.js";
import { transaction, type Tx } from "../../store/db.js";
import { MESSAGE_TYPE, type ChannelRow, type MessageRow, type RealmRow, type UserRow } from "../../store/types.js";
import { getUsersByIds } from "../../store/users.js";
import { mentionList, sendChannelNotice, sendDirectNotice, silentMention } from "../bots/notification-bot.js";
import { MAX_MESSAGE_LENGTH, truncateContent } from "./send-message.js";

/** Zulip's Realm.REPORT_MESSAGE_REASONS, in order (register's server_report_message_types, FL 435). */
export const REPORT_MESSAGE_TYPES = [
  { key: "spam", name: "Spam" },
  { key: "harassment", name: "Harassment" },
  { key: "inappropriate", name: "Inappropriate content" },
  { key: "norms", name: "Violates community norms" },
  { key: "other", name: "Other reason" },
] as const;

export type ReportType = (typeof REPORT_MESSAGE_TYPES)[number]["key"];
export const REPORT_TYPE_KEYS: readonly ReportType[] = REPORT_MESSAGE_TYPES.map((t) => t.key);

/** Zulip's Realm.MAX_REPORT_MESSAGE_EXPLANATION_LENGTH. */
export const MAX_REPORT_DESCRIPTION_LENGTH = 1000;
/** Zulip's MAX_REPORT_MESSAGE_SNIPPET_LENGTH: room left in a message for the explanation and the wording. */
const MAX_REPORTED_CONTENT_LENGTH = MAX_MESSAGE_LENGTH - MAX_REPORT_DESCRIPTION_LENGTH - 500;

const reasonName = (type: ReportType) => REPORT_MESSAGE_TYPES.find((t) => t.key === type)!.name;

interface Reported {
  message: MessageRow;
  channel: ChannelRow | null;
  sender: Pick<UserRow, "id" | "full_name">;
  /** A direct message's participants (its sender included), ascending by id. */
  participants: Array<Pick<UserRow, "id" | "full_name">>;
}

/** The first line: who reported whose message, sent when (and to whom, for direct messages). */
function reportHeader(reporter: UserRow, r: Reported): string {
  const lead = `${silentMention(reporter)} reported a message sent by ${silentMention(r.sender)}`;
  const at = globalTime(r.message.date_sent);
  if (r.channel) return `${lead} at ${at}.`;
  if (r.participants.length <= 2) {
    if (r.sender.id !== reporter.id) return `${lead} at ${at}.`;
    // Reporting one's own direct message: name the other participant (or oneself, in a note to self).
    const other = r.participants.find((p) => p.id !== reporter.id) ?? reporter;
    return `${lead} to ${silentMention(other)} at ${at}.`;
  }
  return `${lead} to ${mentionList(r.participants.filter((p) => p.id !== r.sender.id))} at ${at}.`;
}

function reportContent(reporter: UserRow, r: Reported, url: string, type: ReportType, description: string): string {
  const original = r.channel
    ? `Original message at ${messageLinkSyntax(r.channel.id, r.channel.name, r.message.subject, r.message.id)}`
    : `[Original message](${directMessageUrl(url, r.participants.map((p) => p.id), r.message.id)})`;
  const quoted = truncateContent(r.message.content, MAX_REPORTED_CONTENT_LENGTH);
  const fence = unusedFence(quoted);
  return `${reportHeader(reporter, r)}\n\`\`\`quote\n**${reasonName(type)}**. ${description}\n\`\`\`\n\n${fence} spoiler ${original}\n${quoted}\n${fence}\n`;
}

async function loadReported(tx: Tx, realm: RealmRow, reporter: UserRow, messageId: number): Promise<Reported> {
  const { message, channel } = await accessMessage(tx, reporter, messageId);
  const participantIds = message.type === MESSAGE_TYPE.CHANNEL ? [] : ((await getRecipientMembers(tx, [message.recipient_id])).get(message.recipient_id) ?? []);
  const people = await getUsersByIds(tx, realm.id, [...new Set([message.sender_id, ...participantIds])]);
  const sender = people.find((u) => u.id === message.sender_id) ?? { id: message.sender_id, full_name: "" };
  const participants = people.filter((u) => participantIds.includes(u.id)).sort((a, b) => a.id - b.id);
  return { message, channel, sender, participants };
}

/** POST /messages/{message_id}/report, in Zulip's order of checks. */
export async function checkReportMessage(deps: AppDeps, realm: RealmRow, reporter: UserRow, messageId: number, type: ReportType, description: string): Promise<void> {
  if (type === "other" && description === "") throw new ApiError("An explanation is required.");
  await transaction(deps.store, async (tx) => {
    const channelId = realmSetting(realm, "moderation_request_channel_id");
    const moderation = typeof channelId === "number" ? await getChannelById(tx, realm.id, channelId) : undefined;
    if (!moderation) throw new ApiError("Message reporting is not enabled in this organization.");
    const reported = await loadReported(tx, realm, reporter, messageId);
    const url = realmUrl(deps.config.externalHost, realm.string_id);
    const topic = `${reported.sender.full_name} moderation`;
    const sent = await sendChannelNotice(deps, tx, realm, moderation, topic, reportContent(reporter, reported, url, type, description), { actingUser: reporter });
    if (sent === null) throw new ApiError("Failed to send the message report.");
    const { message, channel, participants } = reported;
    const link = channel ? messageUrl(url, channel.id, channel.name, message.subject, message.id) : directMessageUrl(url, participants.map((p) => p.id), message.id);
    await sendDirectNotice(deps, tx, realm, reporter, `You reported [a message](${link}) for ${reasonName(type).toLowerCase()}.`, { actingUser: reporter });
  });
}
