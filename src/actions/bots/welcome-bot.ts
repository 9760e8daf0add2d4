/**
 * Welcome Bot (Zulip's zerver/lib/onboarding.py): every new person's first direct messages. The
 * first introduces Zulip (with the guide for setting up an organization for administrators); a
 * second carries the organization's custom text (`welcome_message_custom_text`, or the one an
 * administrator put on the invitation) when there is one. POST /realm/test_welcome_bot_custom_message
 * sends an administrator that second message alone, as a preview. Replies to Welcome Bot get an
 * answer (Zulip's send_welcome_bot_response): a few words it knows, else a reminder of them.
 * The wording is Parley's own.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { realmSetting } from "../../lib/realm-settings.js";
import { realmUrl } from "../../lib/realm-url.js";
import { isRealmAdmin } from "../../policy/roles.js";
import { WELCOME_BOT } from "../../policy/system-bots.js";
import { transaction, type Tx } from "../../store/db.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getUsersByIds } from "../../store/users.js";
import { sendDirectNotice } from "./notification-bot.js";

/** The commands Zulip's Welcome Bot lists (bot_commands). */
const COMMANDS = ["apps", "profile", "theme", "channels", "topics", "message formatting", "keyboard shortcuts", "help"];

export function welcomeText(baseUrl: string, user: UserRow): string {
  const lines = [
    `Hi, and welcome to Zulip! 👋 I'm Welcome Bot, and this is a direct message to you.`,
    "",
    `New to Zulip? Start with the [getting started guide](${baseUrl}/help/getting-started-with-zulip).` +
      (isRealmAdmin(user) ? ` Setting up the organization? See [getting your organization started](${baseUrl}/help/getting-your-organization-started-with-zulip).` : ""),
    "",
    "Reply to this message any time; I understand these words: " + COMMANDS.map((c) => `\`${c}\``).join(", ") + ".",
  ];
  return lines.join("\n");
}

/** The custom message, introduced as the organization's (Zulip's get_custom_welcome_message_string). */
export function customWelcomeText(realm: RealmRow, text: string): string {
  return `A message from the administrators of ${realm.name}:\n\n${text}`;
}

/** The realm's configured custom text ("" when none). */
export function realmWelcomeText(realm: RealmRow): string {
  const text = realmSetting(realm, "welcome_message_custom_text");
  return typeof text === "string" ? text : "";
}

/**
 * Sends a new person Welcome Bot's messages inside the caller's transaction. `customText` null
 * takes the realm's; an empty text sends no second message (spec 4.9).
 */
export async function doSendWelcomeMessages(deps: AppDeps, tx: Tx, realm: RealmRow, user: UserRow, customText: string | null): Promise<void> {
  const opts = { actingUser: user, from: WELCOME_BOT };
  await sendDirectNotice(deps, tx, realm, user, welcomeText(realmUrl(deps.config.externalHost, realm.string_id), user), opts);
  const text = customText ?? realmWelcomeText(realm);
  if (text.trim() !== "") await sendDirectNotice(deps, tx, realm, user, customWelcomeText(realm, text), opts);
}

/** POST /realm/test_welcome_bot_custom_message: the custom message alone, to the calling administrator. */
export async function sendTestWelcomeMessage(deps: AppDeps, realm: RealmRow, admin: UserRow, text: string): Promise<number> {
  if (text.length === 0) throw new ApiError("Message must not be empty");
  return transaction(deps.store, (tx) => sendDirectNotice(deps, tx, realm, admin, customWelcomeText(realm, text), { actingUser: admin, from: WELCOME_BOT }));
}

/** What Welcome Bot answers to a reply, by the words it knows (Zulip's select_welcome_bot_response); null: its default answer. */
function keywordAnswer(base: string, word: string): string | null {
  switch (word) {
    case "app":
    case "apps":
      return `Zulip runs on the web, and has apps for desktop and mobile: [download them here](${base}/apps/).`;
    case "profile":
      return `Your name, picture and other details are in [your profile settings](${base}/#settings/profile). Others see them when they click your name.`;
    case "theme":
      return `Light or dark? Pick a theme, and other display options, in [your preferences](${base}/#settings/preferences).`;
    case "stream":
    case "streams":
    case "channel":
    case "channels":
      return `Conversations happen in channels, each about a subject or a team. [Browse the organization's channels](${base}/#channels/all) and subscribe to those you want to follow.`;
    case "topic":
    case "topics":
      return "Every channel message has a topic, a short title that keeps each conversation together. Start a new topic for each new subject, and read or skip conversations topic by topic.";
    case "formatting":
    case "message formatting":
      return `Messages are written in Markdown: **bold**, *italic*, \`code\`, lists, quotes, and more. See [how to format messages](${base}/help/format-your-message-using-markdown).`;
    case "shortcuts":
    case "keyboard shortcuts":
      return `Press \`?\` in the web app for the list of keyboard shortcuts, or read [the keyboard shortcuts page](${base}/help/keyboard-shortcuts).`;
    case "help":
      return `The [help center](${base}/help/) answers most questions. I can also tell you about: ${COMMANDS.map((c) => `\`${c}\``).join(", ")}.`;
    default:
      return null;
  }
}

export function welcomeBotAnswer(base: string, text: string): string {
  const word = text.trim().toLowerCase().replace(/\s+/g, " ").replace(/[.!?]+$/, "");
  return (
    keywordAnswer(base, word) ??
    "I'm only a bot, and I understand just a few words: " + COMMANDS.map((c) => `\`${c}\``).join(", ") + `. For anything else, see the [help center](${base}/help/) or ask your organization's administrators.`
  );
}

/**
 * After a person's direct message to Welcome Bot alone (a one-to-one conversation, as in Zulip),
 * Welcome Bot answers in that conversation, in the sender's transaction.
 */
export async function doAnswerWelcomeBotMessage(deps: AppDeps, tx: Tx, realm: RealmRow, sender: UserRow, participants: readonly number[], content: string): Promise<void> {
  if (sender.is_bot || participants.length !== 2) return;
  const otherId = participants.find((id) => id !== sender.id);
  if (otherId === undefined) return;
  const [other] = await getUsersByIds(tx, realm.id, [otherId]);
  if (!other || !other.is_bot || other.delivery_email.toLowerCase() !== WELCOME_BOT.email) return;
  const base = realmUrl(deps.config.externalHost, realm.string_id);
  await sendDirectNotice(deps, tx, realm, sender, welcomeBotAnswer(base, content), { actingUser: sender, from: WELCOME_BOT });
}
