/**
 * Whether a request without credentials may read a realm as a spectator: Zulip's
 * Realm.allow_web_public_streams_access (zerver/models/realms.py), which asks the server setting
 * WEB_PUBLIC_STREAMS_ENABLED, the realm's enable_spectator_access, and that at least one
 * web-public channel exists (help/public-access-option). The router's "spectator" gate asks it.
 */
import type { Config } from "../config.js";
import { realmHasWebPublicChannel } from "../store/channels.js";
import type { Tx } from "../store/db.js";
import type { RealmRow } from "../store/types.js";

export async function realmAdmitsSpectators(tx: Tx, config: Pick<Config, "webPublicStreamsEnabled">, realm: RealmRow): Promise<boolean> {
  if (!config.webPublicStreamsEnabled || !realm.enable_spectator_access || realm.deactivated) return false;
  return realmHasWebPublicChannel(tx, realm.id);
}
