/**
 * Organization-wide commands (Zulip's list_realms, list_users, deactivate_realm, send_test_email).
 * Lists are bounded pages (docs/LIMITS.md): `next_after_id` continues one that was cut.
 */
import { deactivateRealm } from "../../actions/realm/realm-deactivation.js";
import type { Config } from "../../config.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { isValidEmail } from "../../lib/email.js";
import { realmUrl } from "../../lib/realm-url.js";
import { mailTransport } from "../../mail/transport.js";
import { readTx, type Store } from "../../store/db.js";
import { listRealmsWithUserCounts, listUsersPage } from "../../store/realms.js";
import { withCliDeps } from "../cli-deps.js";
import { STRING, required, type Command } from "../command-spec.js";
import { realmNamed } from "../commands.js";

type Values = Record<string, string | undefined>;

export const LIST_USERS_DEFAULT = 1000;
export const LIST_USERS_MAX = 10_000;

function boundedInt(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,9}$/.test(value) || Number(value) > max) throw new ApiError(`--${name} must be an integer from 0 to ${max}`);
  return Number(value);
}

export async function runListRealms(store: Store, config: Config) {
  const realms = await listRealmsWithUserCounts(readTx(store));
  return {
    realms: realms.map((r) => ({
      realm_id: r.id,
      subdomain: r.string_id,
      name: r.name,
      url: realmUrl(config.externalHost, r.string_id),
      deactivated: Boolean(r.deactivated),
      active_humans: r.active_humans,
    })),
  };
}

export async function runListUsers(store: Store, v: Values) {
  const limit = boundedInt("limit", v.limit, LIST_USERS_DEFAULT, LIST_USERS_MAX);
  const afterId = boundedInt("after-id", v["after-id"], 0, Number.MAX_SAFE_INTEGER);
  const tx = readTx(store);
  const realm = await realmNamed(tx, required(v, ["realm"]).realm);
  // One more than asked says whether there is a next page.
  const rows = await listUsersPage(tx, realm.id, afterId, limit + 1);
  const page = rows.slice(0, limit);
  return {
    realm_id: realm.id,
    users: page.map((u) => ({
      user_id: u.id,
      email: u.delivery_email,
      full_name: u.full_name,
      role: u.role,
      is_active: Boolean(u.is_active),
      is_bot: Boolean(u.is_bot),
      bot_type: u.bot_type,
      date_joined: u.date_joined,
    })),
    next_after_id: rows.length > limit ? page[page.length - 1].id : null,
  };
}

export async function runDeactivateRealm(deps: AppDeps, v: Values) {
  const realm = await realmNamed(readTx(deps.store), required(v, ["realm"]).realm);
  await deactivateRealm(deps, realm);
  return { realm_id: realm.id, subdomain: realm.string_id, deactivated: true };
}

export async function runSendTestEmail(config: Config, v: Values, now: Date) {
  const { to } = required(v, ["to"]);
  if (!isValidEmail(to)) throw new ApiError(`Invalid email address '${to}'`);
  await mailTransport(config).send({
    from: config.mailFrom,
    to,
    subject: "Parley test email",
    text: `This is a test email from the Parley server at ${config.externalHost}.\nIf you received it, outgoing mail works.\n`,
    date: now,
  });
  return { sent_to: to, from: config.mailFrom, transport: config.smtpUrl ? "smtp" : "file" };
}

export const REALM_ADMIN_COMMANDS: Record<string, Command> = {
  "list-realms": { summary: "Lists the organizations with their URLs and active human accounts.", options: {}, run: (store, _v, config) => runListRealms(store, config) },
  "list-users": {
    summary: `Lists an organization's accounts by id, ${LIST_USERS_DEFAULT} at a time (at most ${LIST_USERS_MAX}).`,
    options: { realm: STRING, limit: STRING, "after-id": STRING },
    flags: { realm: "the organization's subdomain", limit: `how many (default ${LIST_USERS_DEFAULT})`, "after-id": "continue after this user id (next_after_id)" },
    run: (store, v) => runListUsers(store, v),
  },
  "deactivate-realm": {
    summary: "Deactivates an organization: every login and API key of it is refused.",
    options: { realm: STRING },
    flags: { realm: "the organization's subdomain" },
    run: (store, v, config) => withCliDeps(store, config, (deps) => runDeactivateRealm(deps, v)),
  },
  "send-test-email": {
    summary: "Sends a test message through the configured mail (SMTP_URL, or .eml files under VAR_DIR/mail).",
    options: { to: STRING },
    flags: { to: "the address to send it to" },
    run: (_store, v, config) => runSendTestEmail(config, v, new Date()),
  },
};
