/** The manage commands as functions (the CLI parses flags; tests call these directly). */
import { doSetUpNewRealm } from "../actions/realm/realm-onboarding.js";
import { checkCreateRealm } from "../actions/realm/realms.js";
import type { Config } from "../config.js";
import { withCliDeps } from "./cli-deps.js";
import { checkCreateUser, subscribeNewUser } from "../actions/users/users.js";
import type { Clock } from "../deps.js";
import { ApiError } from "../errors.js";
import { LocalEventBus } from "../events/bus.js";
import { ROLES } from "../policy/roles.js";
import { transaction, type Store, type Tx } from "../store/db.js";
import { getRealmBySubdomain } from "../store/realms.js";
import type { RealmRow, UserRow } from "../store/types.js";
import { getUserByDeliveryEmail, getUserById, updateUser } from "../store/users.js";

export interface CreatedAccount {
  realm_id: number;
  user_id: number;
  email: string;
  api_key: string;
}

/**
 * `manage create-realm`: the organization, its owner and, given the server's config, what a new
 * organization starts with (default channels and Welcome Bot's first messages, realm-onboarding.ts).
 */
export async function runCreateRealm(store: Store, clock: Clock, v: Record<string, string>, config?: Config): Promise<CreatedAccount> {
  const input = { subdomain: v.subdomain, name: v.name, ownerEmail: v["owner-email"], ownerName: v["owner-name"], ownerPassword: v["owner-password"] };
  const { realmId, owner } = config
    ? await withCliDeps(store, config, (deps) => checkCreateRealm(store, input, clock.now(), "{}", (tx, realm, user) => doSetUpNewRealm({ ...deps, clock }, tx, realm, user)))
    : await checkCreateRealm(store, input, clock.now());
  return { realm_id: realmId, user_id: owner.userId, email: owner.email, api_key: owner.apiKey };
}

function intFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new ApiError(`--${name} must be an integer`);
  return Number(value);
}

export async function runCreateUser(store: Store, clock: Clock, v: Record<string, string | undefined>): Promise<CreatedAccount> {
  const role = intFlag("role", v.role);
  if (role !== undefined && !ROLES.includes(role)) throw new ApiError("--role must be one of 100, 200, 300, 400, 600");
  const botType = intFlag("bot-type", v["bot-type"]);
  if (v["bot-owner"] !== undefined && botType === undefined) throw new ApiError("--bot-owner needs --bot-type");
  return transaction(store, async (tx) => {
    const realm = await realmNamed(tx, v.realm as string);
    let botOwnerId: number | null = null;
    if (v["bot-owner"] !== undefined) {
      const owner = await getUserByDeliveryEmail(tx, realm.id, v["bot-owner"]);
      if (!owner) throw new ApiError(`no user '${v["bot-owner"]}' in realm '${v.realm}'`);
      botOwnerId = owner.id;
    }
    const created = await checkCreateUser(
      tx,
      realm,
      { email: v.email as string, fullName: v["full-name"] as string, password: v.password as string, role, botType: botType ?? null, botOwnerId },
      clock.now(),
    );
    if (botType === undefined) {
      // A new human starts in the realm's default channels, as Zulip's create_user command does.
      // The events go to a bus nobody listens to: running servers read the rows, not this process.
      const user = (await getUserById(tx, realm.id, created.userId)) as UserRow;
      await subscribeNewUser({ events: new LocalEventBus(), clock }, tx, realm, user);
    }
    return { realm_id: realm.id, user_id: created.userId, email: created.email, api_key: created.apiKey };
  });
}

export async function realmNamed(tx: Tx, subdomain: string): Promise<RealmRow> {
  const realm = await getRealmBySubdomain(tx, subdomain.toLowerCase());
  if (!realm) throw new ApiError(`no realm with subdomain '${subdomain}'`);
  return realm;
}

/** The account with this address (any case) in the realm, active or not, human or bot. */
export async function accountNamed(tx: Tx, subdomain: string, email: string): Promise<{ realm: RealmRow; user: UserRow }> {
  const realm = await realmNamed(tx, subdomain);
  const user = await getUserByDeliveryEmail(tx, realm.id, email);
  if (!user) throw new ApiError(`no user '${email}' in realm '${subdomain}'`);
  return { realm, user };
}

/**
 * Per-account permissions only the server's operators may grant (Zulip's `manage.py
 * change_user_role EMAIL can_create_users [--revoke]`): can_create_users lets an administrator
 * use POST /users (FL 36); can_change_user_emails lets an owner change others' addresses.
 */
export const OPERATOR_PERMISSIONS = ["can_create_users", "can_change_user_emails"] as const;
export type OperatorPermission = (typeof OPERATOR_PERMISSIONS)[number];

export interface PermissionChange {
  realm_id: number;
  user_id: number;
  email: string;
  permission: OperatorPermission;
  value: boolean;
}

export async function runChangeUserPermission(store: Store, v: Record<string, string | undefined>): Promise<PermissionChange> {
  const permission = v.permission as OperatorPermission;
  if (!OPERATOR_PERMISSIONS.includes(permission)) throw new ApiError(`--permission must be one of ${OPERATOR_PERMISSIONS.join(", ")}`);
  const value = v.revoke === undefined;
  return transaction(store, async (tx) => {
    const { realm, user } = await accountNamed(tx, v.realm as string, v.email as string);
    await updateUser(tx, user.id, { [permission]: value });
    return { realm_id: realm.id, user_id: user.id, email: user.delivery_email, permission, value };
  });
}
