/**
 * Welcome Bot (Zulip's zerver/lib/onboarding.py): every new person's first direct messages. The
 * first introduces Zulip (with the guide for setting up an organization for administrators); a
 * second carries the organization's custom text (`welcome_message_custom_text`, or the one an
 * administrator put on the invitation) when there is one. POST /realm/test_welcome_bot_custom_message
 * sends an administrator that second message alone, as a preview. The wording is Parley's own.
 */
import type { AppDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import { realmSetting } from "../lib/realm-settings.js";
import { realmUrl } from "../lib/realm-url.js";
import { isRealmAdmin } from "../policy/roles.js";
import { WELCOME_BOT } from "../policy/system-bots.js";
import { transaction, type Tx } from "../store/db.js";
import type { RealmRow, UserRow } from "../store/types.js";
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
