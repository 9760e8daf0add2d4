/**
 * What a new organization starts with, as Zulip's do_create_realm and send_initial_realm_messages
 * (zerver/actions/create_realm.py, zerver/lib/onboarding.py) set it up: three public channels —
 * #general for team-wide conversations, #sandbox to experiment in, and #Parley for questions about
 * the software (Zulip's "Zulip" channel) — all three default channels, so every new member is
 * subscribed; the owner subscribed to them; #general as the channel where new channels and new
 * members are announced (Zulip's new_stream_announcements_stream and signup_announcements_stream);
 * and Welcome Bot's first messages. Runs inside the transaction that creates the realm, so a
 * failure leaves no realm.
 */
import type { AppDeps } from "../../deps.js";
import { Membership } from "../../policy/group-settings.js";
import { WELCOME_BOT } from "../../policy/system-bots.js";
import { withRealmSetting } from "../../lib/realm-settings.js";
import type { Tx } from "../../store/db.js";
import { getRealmById, updateRealm } from "../../store/realms.js";
import type { ChannelRow, RealmRow, UserRow } from "../../store/types.js";
import { doCreateChannel } from "../channels/create-channel.js";
import { getSystemBot, sendChannelNotice } from "../bots/notification-bot.js";
import { subscribeNewUser } from "../users/users.js";

export const INITIAL_CHANNELS = [
  { name: "general", description: "For team-wide conversations" },
  { name: "sandbox", description: "Experiment with Parley here. :test_tube:" },
  { name: "Parley", description: "Questions and discussion about using Parley." },
] as const;

/** Welcome Bot's first channel messages: [channel, topic, content]. No links, so searches stay quiet. */
const INITIAL_MESSAGES: ReadonlyArray<readonly [channel: string, topic: string, content: string]> = [
  ["general", "greetings", "This **greetings** topic is a great place to say “hi” :wave: to your teammates.\n\nEvery message in a channel has a topic, so conversations stay apart: reply here, or start a new topic for something else."],
  ["sandbox", "experiments", ":test_tube: Use this topic to try out **formatting**, *emphasis*, `code`, emoji :tada: and reactions without bothering anyone."],
  ["Parley", "welcome", "Welcome to your new organization! Invite your team from **Settings › Organization › Invitations**, and create channels for the subjects you talk about."],
];

export async function doSetUpNewRealm(deps: AppDeps, tx: Tx, realm: RealmRow, owner: UserRow): Promise<ChannelRow[]> {
  const m = await Membership.load(tx, owner);
  const channels: ChannelRow[] = [];
  for (const spec of INITIAL_CHANNELS) {
    const settings = { inviteOnly: false, isWebPublic: false, isDefaultStream: true, groupSettings: {} };
    channels.push(await doCreateChannel(deps, tx, realm, m, { ...spec, ...settings }, { historyPublic: true, retentionDays: null }));
  }
  await subscribeNewUser(deps, tx, realm, owner);
  const byName = new Map(channels.map((c) => [c.name, c]));
  const general = (byName.get("general") as ChannelRow).id;
  const current = (await getRealmById(tx, realm.id)) as RealmRow;
  let settings = withRealmSetting(current, "new_stream_announcements_stream_id", general);
  settings = withRealmSetting({ settings }, "signup_announcements_stream_id", general);
  await updateRealm(tx, realm.id, { settings });
  // The bot is the acting user, so the owner's copies start unread: the organization's first messages.
  const bot = await getSystemBot(deps, tx, realm, WELCOME_BOT);
  for (const [channel, topic, content] of INITIAL_MESSAGES) {
    await sendChannelNotice(deps, tx, realm, byName.get(channel) as ChannelRow, topic, content, { actingUser: bot, from: WELCOME_BOT, renderAsUserId: owner.id });
  }
  return channels;
}
