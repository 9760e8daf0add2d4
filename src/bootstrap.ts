/**
 * First start just works (issue 2): on an empty store, create an organization on the root domain
 * with an owner account and hand its credentials to the person starting the server, once.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { doSetUpNewRealm } from "./actions/realm/realm-onboarding.js";
import { checkCreateRealm } from "./actions/realm/realms.js";
import type { AppDeps } from "./deps.js";
import { randomToken } from "./lib/secrets.js";
import { readTx } from "./store/db.js";
import { countRealms } from "./store/realms.js";

export interface InitialCredentials {
  realm_url: string;
  email: string;
  password: string;
  api_key: string;
  user_id: number;
}

/** Returns the new owner's credentials, or null when the store already holds a realm. */
export async function ensureInitialRealm(deps: AppDeps, realmUrl: string): Promise<InitialCredentials | null> {
  if ((await countRealms(readTx(deps.store))) > 0) return null;
  const password = randomToken(12);
  const email = "owner@parley.local";
  let owner;
  try {
    ({ owner } = await checkCreateRealm(
      deps.store,
      { subdomain: "", name: "Parley", ownerEmail: email, ownerName: "Owner", ownerPassword: password },
      deps.clock.now(),
      "{}",
      (tx, realm, user) => doSetUpNewRealm(deps, tx, realm, user),
    ));
  } catch (err) {
    // Several processes starting together on one empty store: one of them wins; the rest carry on.
    if ((await countRealms(readTx(deps.store))) > 0) return null;
    throw err;
  }
  const creds = { realm_url: realmUrl, email, password, api_key: owner.apiKey, user_id: owner.userId };
  mkdirSync(deps.config.varDir, { recursive: true });
  // `mode` applies only when the file is created: a leftover file (from a wiped store) would keep
  // its old, possibly world-readable mode, so remove it and create it afresh.
  const path = join(deps.config.varDir, "initial-credentials.json");
  rmSync(path, { force: true });
  writeFileSync(path, JSON.stringify(creds, null, 2) + "\n", { mode: 0o600, flag: "wx" });
  return creds;
}
