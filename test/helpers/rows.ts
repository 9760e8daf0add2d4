/** Minimal rows for store-level tests that bypass the actions (no validation, no system groups). */
import { generateApiKey } from "../../src/lib/secrets.js";
import type { Tx } from "../../src/store/db.js";
import { insertRealm } from "../../src/store/realms.js";
import type { NewUser } from "../../src/store/types.js";
import { insertUser } from "../../src/store/users.js";

export const NOW = 1_700_000_000;

export function realmRow(tx: Tx, subdomain: string, name = `Realm ${subdomain || "root"}`): Promise<number> {
  return insertRealm(tx, { string_id: subdomain, name, date_created: NOW });
}

export function newUser(realmId: number, email: string, overrides: Partial<NewUser> = {}): NewUser {
  return {
    realm_id: realmId,
    email,
    delivery_email: email,
    full_name: email.split("@")[0],
    role: 400,
    bot_type: null,
    bot_owner_id: null,
    date_joined: NOW,
    last_login: null,
    api_key: generateApiKey(),
    password_hash: null,
    default_sending_channel_id: null,
    default_events_register_channel_id: null,
    ...overrides,
  };
}

export function userRow(tx: Tx, realmId: number, email: string, overrides: Partial<NewUser> = {}): Promise<number> {
  return insertUser(tx, newUser(realmId, email, overrides));
}
