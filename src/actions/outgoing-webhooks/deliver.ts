/**
 * One POST to an outgoing-webhook bot (Zulip's zerver/lib/outgoing_webhook.py, described in its
 * outgoing-webhooks API page): the generic payload (JSON: data, message, bot_email, bot_full_name,
 * token, trigger) or the Slack-compatible form; a JSON answer's `content` is posted back as the bot
 * where the message was (`response_not_required` or blank content: nothing). Time-outs and
 * connection errors are retried (MAX_RETRIES); any other failure, and the last retry, answers
 * "Failure! …" in the conversation and tells the bot's owner, as Zulip's fail_with_message and
 * notify_bot_owner do. Responses are read up to MAX_RESPONSE_BYTES.
 */
import type { AppDeps } from "../../deps.js";
import type { Agent } from "undici";
import { isPrivateLiteral, privateAddressCause, publicOnlyLookup } from "../../lib/private-address.js";
import { realmUrl } from "../../lib/realm-url.js";
import { messageUrl } from "../../lib/topic-links.js";
import { getBotServices, type BotServiceRow } from "../../store/bot-services.js";
import { getChannelsByRecipientIds, getRecipientMembers } from "../../store/channels.js";
import { readTx } from "../../store/db.js";
import { getMessageById } from "../../store/messages.js";
import { getRealmById } from "../../store/realms.js";
import { MESSAGE_TYPE, type MessageRow, type RealmRow, type UserRow } from "../../store/types.js";
import { getUserById } from "../../store/users.js";
import { presentMessages } from "../messages/message-views.js";
import { checkSendMessage } from "../messages/send-message.js";
import type { OutgoingWebhookJob } from "./triggers.js";

/** Zulip's MAX_REQUEST_RETRIES: a timed-out or unreachable service is tried this many more times. */
export const MAX_RETRIES = 3;
/** Parley's bound on what it reads of a service's answer (docs/LIMITS.md). */
export const MAX_RESPONSE_BYTES = 256 * 1024;
const CLIENT = "OutgoingWebhookResponse";
/**
 * The undici package (its own copy, for the `dispatcher` whose lookup checks addresses) and the
 * agent whose host names may only resolve to public addresses (lib/private-address.ts), loaded on
 * the first delivery: most servers never call an outgoing webhook, and undici is several MiB of
 * resident memory at idle (bench S9).
 */
let client: Promise<{ fetch: typeof import("undici").fetch; publicOnly: Agent }> | null = null;
const undiciClient = () =>
  (client ??= import("undici").then((undici) => ({ fetch: undici.fetch, publicOnly: new undici.Agent({ connect: { lookup: publicOnlyLookup } }) })));
const SLACK_INTERFACE = 2;

/** What a finished attempt asks of the queue. */
export type Outcome = "done" | "retry";

interface Context {
  deps: AppDeps;
  realm: RealmRow;
  bot: UserRow;
  message: MessageRow;
  presented: Record<string, unknown>;
  participants: number[];
  channel: { id: number; name: string } | null;
}

class TooLarge extends Error {}

async function readBounded(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new TooLarge(`The response was larger than ${MAX_RESPONSE_BYTES} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function requestFor(c: Context, service: BotServiceRow, trigger: string): { body: string; contentType: string } {
  if (service.interface === SLACK_INTERFACE) {
    const form = new URLSearchParams({
      token: service.token,
      team_id: c.realm.string_id,
      team_domain: c.deps.config.externalHost,
      channel_id: String(c.channel?.id ?? ""),
      channel_name: c.channel?.name ?? "",
      thread_ts: String(c.message.date_sent),
      timestamp: String(c.message.date_sent),
      user_id: String(c.message.sender_id),
      user_name: String(c.presented.sender_full_name),
      text: c.message.content,
      trigger_word: trigger,
      service_id: String(service.id),
    });
    return { body: form.toString(), contentType: "application/x-www-form-urlencoded" };
  }
  const payload = { data: c.message.content, message: c.presented, bot_email: c.bot.email, bot_full_name: c.bot.full_name, token: service.token, trigger };
  return { body: JSON.stringify(payload), contentType: "application/json" };
}

/** Posts `content` as the bot where the triggering message was (Zulip's send_response_message). */
async function reply(c: Context, content: string): Promise<void> {
  const input = c.channel
    ? { type: "stream", to: String(c.channel.id), topic: c.message.subject, content, client: CLIENT }
    : { type: "private", to: JSON.stringify(c.participants), content, client: CLIENT };
  await checkSendMessage(c.deps, c.realm, c.bot, input);
}

/** Zulip's notify_bot_owner: a direct message from the bot to its owner about the failure. */
async function notifyOwner(c: Context, detail: string): Promise<void> {
  if (c.bot.bot_owner_id === null) return;
  const base = realmUrl(c.deps.config.externalHost, c.realm.string_id);
  const url = c.channel
    ? messageUrl(base, c.channel.id, c.channel.name, c.message.subject, c.message.id)
    : `${base}/#narrow/dm/${c.participants.join(",")}-group/near/${c.message.id}`;
  const content = `[A message](${url}) to your bot @_**${c.bot.full_name}** triggered an outgoing webhook.\n${detail}`;
  await checkSendMessage(c.deps, c.realm, c.bot, { type: "private", to: JSON.stringify([c.bot.bot_owner_id]), content, client: CLIENT });
}

async function fail(c: Context, conversationNotice: string, ownerDetail: string): Promise<void> {
  await reply(c, `Failure! ${conversationNotice}`);
  await notifyOwner(c, ownerDetail);
}

const quoted = (text: string) => `\n\`\`\`\n${text.slice(0, 1000)}\n\`\`\``;

/** A 2xx answer: Zulip's process_success_response. */
async function handleSuccess(c: Context, service: BotServiceRow, text: string): Promise<void> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail(c, "Invalid JSON in response", `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> Invalid JSON in response\nThe response contains the following payload:${quoted(text)}`);
  }
  // Old zulip_botserver versions answered json.dumps("") for "no response".
  if (parsed === "") return;
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return fail(c, "Invalid response format", `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> Invalid response format`);
  }
  const answer = parsed as Record<string, unknown>;
  if (answer.response_not_required === true) return;
  // The Slack-compatible format answers with `text`, the generic one with `content`.
  const content = service.interface === SLACK_INTERFACE ? answer.text : answer.content;
  if (typeof content !== "string" || content.trim() === "") return;
  await reply(c, content);
}

async function loadContext(deps: AppDeps, job: OutgoingWebhookJob): Promise<{ c: Context; service: BotServiceRow } | null> {
  const tx = readTx(deps.store);
  const [realm, bot, message] = await Promise.all([getRealmById(tx, job.realmId), getUserById(tx, job.realmId, job.botId), getMessageById(tx, job.realmId, job.messageId)]);
  const service = (await getBotServices(tx, [job.botId]))[0];
  if (!realm || !bot || !bot.is_active || !message || !service) return null;
  const isChannel = message.type === MESSAGE_TYPE.CHANNEL;
  const channel = isChannel ? ((await getChannelsByRecipientIds(tx, [message.recipient_id]))[0] ?? null) : null;
  const participants = isChannel ? [] : ((await getRecipientMembers(tx, [message.recipient_id])).get(message.recipient_id) ?? []);
  const view = { applyMarkdown: false, gravatar: deps.config.enableGravatar, clientGravatar: false, allowEmptyTopicName: true };
  const [presented] = await presentMessages(tx, realm, [message], new Map(), view);
  delete presented.flags;
  presented.rendered_content = message.rendered_content;
  return { c: { deps, realm, bot, message, presented, participants, channel: channel && { id: channel.id, name: channel.name } }, service };
}

/**
 * One attempt (`attempt` counts from 0). "retry" when the service timed out or could not be
 * reached and retries remain; the last failure is reported instead.
 */
export async function deliverOutgoingWebhook(deps: AppDeps, job: OutgoingWebhookJob, attempt: number): Promise<Outcome> {
  const loaded = await loadContext(deps, job);
  if (!loaded) return "done";
  const { c, service } = loaded;
  const { body, contentType } = requestFor(c, service, job.trigger);
  const timeout = deps.config.outgoingWebhookTimeoutSeconds;
  // A bot's URL is chosen by whoever may create bots: never let it reach this network's private
  // services unless the operator allows it (OUTGOING_WEBHOOK_ALLOW_PRIVATE). Host names are
  // checked inside the connection's own lookup, so the address checked is the one connected to.
  const allowPrivate = deps.config.outgoingWebhookAllowPrivate;
  const privateUrl = async (address: string) => {
    await fail(c, "Bot is unavailable", `The bot's URL ${service.base_url} points to a private network address (${address}), which this server does not call.`);
    return "done" as const;
  };
  if (!allowPrivate && isPrivateLiteral(service.base_url)) return privateUrl(new URL(service.base_url).hostname);
  let response: Response;
  let text: string;
  try {
    const undici = await undiciClient();
    response = (await undici.fetch(service.base_url, {
      method: "POST",
      body,
      headers: { "content-type": contentType, "user-agent": "ZulipOutgoingWebhook/Parley" },
      redirect: "manual",
      signal: AbortSignal.timeout(timeout * 1000),
      dispatcher: allowPrivate ? undefined : undici.publicOnly,
    })) as unknown as Response;
    text = await readBounded(response);
  } catch (err) {
    const refused = privateAddressCause(err);
    if (refused) return privateUrl(refused.address);
    if (err instanceof TooLarge) {
      await fail(c, "Invalid response format", err.message);
      return "done";
    }
    const timedOut = (err as Error).name === "TimeoutError" || (err as Error).name === "AbortError";
    if (attempt < MAX_RETRIES) return "retry";
    const detail = timedOut
      ? `Request timed out after ${timeout} seconds.`
      : `The message \`${c.message.content.slice(0, 200)}\` resulted in a connection error when sending a request with URL ${service.base_url}.`;
    await fail(c, "Bot is unavailable", detail);
    return "done";
  }
  if (response.status >= 200 && response.status < 300) {
    await handleSuccess(c, service, text);
  } else {
    await fail(c, `Third party responded with ${response.status}`, `The webhook got a response with status code *${response.status}*.` + (text ? `\nThe response contains the following payload:${quoted(text)}` : ""));
  }
  return "done";
}
