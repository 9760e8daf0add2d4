/** The manage commands as functions (the CLI parses flags; tests call these directly). */
import { checkCreateRealm } from "../actions/realms.js";
import { checkCreateUser } from "../actions/users.js";
import type { Clock } from "../deps.js";
import { ApiError } from "../errors.js";
import { ROLES } from "../policy/roles.js";
import { transaction, type Store } from "../store/db.js";
import { getRealmBySubdomain } from "../store/realms.js";
import { getUserByDeliveryEmail } from "../store/users.js";

export interface CreatedAccount {
  realm_id: number;
  user_id: number;
  email: string;
  api_key: string;
}

export async function runCreateRealm(store: Store, clock: Clock, v: Record<string, string>): Promise<CreatedAccount> {
  const { realmId, owner } = await checkCreateRealm(
    store,
    { subdomain: v.subdomain, name: v.name, ownerEmail: v["owner-email"], ownerName: v["owner-name"], ownerPassword: v["owner-password"] },
    clock.now(),
  );
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
    const realm = await getRealmBySubdomain(tx, (v.realm as string).toLowerCase());
    if (!realm) throw new ApiError(`no realm with subdomain '${v.realm}'`);
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
    return { realm_id: realm.id, user_id: created.userId, email: created.email, api_key: created.apiKey };
  });
}
