/**
 * The account commands an operator runs from the shell, after Zulip's management commands
 * (change_user_role, deactivate_user, reactivate_user, change_password, send_password_reset_email,
 * change_user_email, regenerate_api_key). Each goes through the same actions as the API, so the
 * events fire and the rules hold (the last owner keeps the role; the last account stays active);
 * the operator is the actor (null in the audit log, as Zulip's acting_user=None).
 */
import { doSetPassword, checkNewPassword, doSendPasswordReset } from "../../actions/auth/passwords.js";
import { doRegenerateApiKey } from "../../actions/auth/auth.js";
import { cannotDeactivateLastUser, checkReactivation, doDeactivateUser, doReactivateUser } from "../../actions/users/user-activation.js";
import { checkEmailAvailable, doChangeDeliveryEmail, doChangeRole, isLastOwner } from "../../actions/users/user-admin.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { ROLE } from "../../policy/roles.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { countActiveUsers, getUserById } from "../../store/users.js";
import { withCliDeps } from "../cli-deps.js";
import { STRING, required, type Command } from "../command-spec.js";
import { accountNamed } from "../commands.js";

/** Role names as Zulip's change_user_role takes them, and the numbers the API uses. */
const ROLE_NAMES: Record<string, number> = { owner: ROLE.OWNER, administrator: ROLE.ADMINISTRATOR, moderator: ROLE.MODERATOR, member: ROLE.MEMBER, guest: ROLE.GUEST };

export function parseRole(value: string): number {
  const role = ROLE_NAMES[value.toLowerCase()] ?? (Object.values(ROLE_NAMES).includes(Number(value)) ? Number(value) : undefined);
  if (role === undefined) throw new ApiError(`--role must be one of ${Object.keys(ROLE_NAMES).join(", ")} (or 100, 200, 300, 400, 600)`);
  return role;
}

type Values = Record<string, string | undefined>;

/** Every account command names the account by realm subdomain and address. */
const ACCOUNT = { realm: STRING, email: STRING };
const ACCOUNT_FLAGS = { realm: "the organization's subdomain (\"\" for the root domain)", email: "the account's real address" };

/** The account row read again inside the write transaction, and the one JSON summary every command starts from. */
async function inTransaction<T>(deps: AppDeps, v: Values, work: (tx: Tx, realm: RealmRow, user: UserRow) => Promise<T>): Promise<T> {
  const { realm: subdomain, email } = required(v, ["realm", "email"]);
  return transaction(deps.store, async (tx) => {
    const { realm, user } = await accountNamed(tx, subdomain, email);
    return work(tx, realm, user);
  });
}

const summary = (user: UserRow) => ({ realm_id: user.realm_id, user_id: user.id, email: user.delivery_email });

export async function runChangeRole(deps: AppDeps, v: Values) {
  const role = parseRole(required(v, ["role"]).role);
  return inTransaction(deps, v, async (tx, realm, user) => {
    if (user.role === role) throw new ApiError("User already has this role.");
    if (await isLastOwner(tx, user)) throw new ApiError("The owner permission cannot be removed from the only organization owner.");
    await doChangeRole(deps, tx, realm, null, user, role);
    return { ...summary(user), old_role: user.role, role };
  });
}

export async function runDeactivateUser(deps: AppDeps, v: Values) {
  return inTransaction(deps, v, async (tx, _realm, user) => {
    if (!user.is_active) throw new ApiError("User is already deactivated.");
    if (await isLastOwner(tx, user)) throw cannotDeactivateLastUser(true);
    if (!user.is_bot && (await countActiveUsers(tx, user.realm_id)) <= 1) throw cannotDeactivateLastUser(false);
    await doDeactivateUser(deps, tx, null, user);
    return { ...summary(user), is_active: false };
  });
}

export async function runReactivateUser(deps: AppDeps, v: Values) {
  return inTransaction(deps, v, async (tx, realm, user) => {
    await checkReactivation(tx, realm, user);
    await doReactivateUser(deps, tx, realm, null, user);
    return { ...summary(user), is_active: true };
  });
}

export async function runSetPassword(deps: AppDeps, v: Values) {
  const { password } = required(v, ["password"]);
  checkNewPassword(password);
  return inTransaction(deps, v, async (tx, _realm, user) => {
    if (user.is_bot) throw new ApiError("Bots have no password; they use their API key.");
    await doSetPassword(deps, tx, null, user, password);
    return { ...summary(user), password_set: true };
  });
}

export async function runSendPasswordReset(deps: AppDeps, v: Values) {
  const { realm: subdomain, email } = required(v, ["realm", "email"]);
  const { realm, user } = await accountNamed(readTx(deps.store), subdomain, email);
  await doSendPasswordReset(deps, realm, user);
  return { ...summary(user), sent: true };
}

export async function runChangeEmail(deps: AppDeps, v: Values) {
  const newEmail = required(v, ["new-email"])["new-email"];
  return inTransaction(deps, v, async (tx, realm, user) => {
    const address = await checkEmailAvailable(tx, realm, user, newEmail);
    if (address === user.delivery_email) throw new ApiError(`'${address}' is already the account's address.`);
    await doChangeDeliveryEmail(deps, tx, realm, user, address);
    return { ...summary(user), old_email: user.delivery_email, email: address };
  });
}

export async function runRotateApiKey(deps: AppDeps, v: Values) {
  const { realm: subdomain, email } = required(v, ["realm", "email"]);
  const { user } = await accountNamed(readTx(deps.store), subdomain, email);
  const apiKey = await doRegenerateApiKey(deps, user);
  const after = (await getUserById(readTx(deps.store), user.realm_id, user.id)) as UserRow;
  return { ...summary(after), api_key: apiKey };
}

const withDeps = (fn: (deps: AppDeps, v: Values) => Promise<unknown>): Command["run"] => (store, v, config) => withCliDeps(store, config, (deps) => fn(deps, v));

export const USER_ADMIN_COMMANDS: Record<string, Command> = {
  "change-role": {
    summary: "Gives an account another role; the only owner keeps theirs.",
    options: { ...ACCOUNT, role: STRING },
    flags: { ...ACCOUNT_FLAGS, role: "owner, administrator, moderator, member or guest (or 100…600)" },
    run: withDeps(runChangeRole),
  },
  "deactivate-user": {
    summary: "Deactivates an account and the bots it owns; its API keys and sessions stop working.",
    options: ACCOUNT,
    flags: ACCOUNT_FLAGS,
    run: withDeps(runDeactivateUser),
  },
  "reactivate-user": { summary: "Reactivates a deactivated account.", options: ACCOUNT, flags: ACCOUNT_FLAGS, run: withDeps(runReactivateUser) },
  "set-password": {
    summary: "Sets an account's password (its browser sessions end).",
    options: { ...ACCOUNT, password: STRING },
    flags: { ...ACCOUNT_FLAGS, password: "the new password, 6 to 1000 characters" },
    run: withDeps(runSetPassword),
  },
  "send-password-reset": {
    summary: "Mails the account a link to choose a new password (valid 24 hours, once).",
    options: ACCOUNT,
    flags: ACCOUNT_FLAGS,
    run: withDeps(runSendPasswordReset),
  },
  "change-email": {
    summary: "Changes an account's real address.",
    options: { ...ACCOUNT, "new-email": STRING },
    flags: { ...ACCOUNT_FLAGS, "new-email": "the new address, unused in the realm" },
    run: withDeps(runChangeEmail),
  },
  "rotate-api-key": {
    summary: "Replaces an account's API key (the old one stops working) and prints the new one.",
    options: ACCOUNT,
    flags: ACCOUNT_FLAGS,
    run: withDeps(runRotateApiKey),
  },
};

