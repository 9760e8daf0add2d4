/**
 * Bots' key/value storage (Zulip's get/update/remove-bot-storage; the zulip_bots StateHandler keeps
 * `bot_handler.storage` here). Bots only since FL 494: anyone else gets PERMISSION_DENIED "Must be
 * a bot user". Keys and values are strings; a bot's storage holds at most USER_STATE_SIZE_LIMIT
 * characters (keys plus values, counted in code points as Python's len() counts them). As in Zulip:
 * - no keys, or an empty list, means every key;
 * - asking for or deleting a key that is not stored fails with "Key does not exist." and changes
 *   nothing (so does naming a key twice in one deletion, as Zulip counts the rows it found);
 * - an update over the limit fails whole, naming by how much it is over.
 */
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { readTx, transaction } from "../../store/db.js";
import {
  deleteBotStorageEntries,
  getBotStorageEntries,
  getBotStorageSizes,
  getBotStorageTotal,
  lockBotStorage,
  putBotStorageEntries,
} from "../../store/bot-storage.js";
import type { UserRow } from "../../store/types.js";

const mustBeBot = () => new ApiError("Must be a bot user", "PERMISSION_DENIED");
const keyDoesNotExist = () => new ApiError("Key does not exist.");

function checkBotCaller(user: UserRow): void {
  if (!user.is_bot) throw mustBeBot();
}

/** Length in code points: every stored string has its surrogates paired (params refuse lone ones). */
function codePoints(s: string): number {
  return s.length - (s.match(/[\uDC00-\uDFFF]/g)?.length ?? 0);
}

/** GET /bot_storage: the requested entries (every entry when `keys` is absent or empty). */
export async function getBotStorage(deps: AppDeps, bot: UserRow, keys: readonly string[] | undefined): Promise<Record<string, string>> {
  checkBotCaller(bot);
  const wanted = keys !== undefined && keys.length > 0 ? keys : undefined;
  const entries = await getBotStorageEntries(readTx(deps.store), bot.id, wanted);
  const byKey = new Map(entries.map((e) => [e.key, e.value]));
  const storage: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const key of wanted ?? entries.map((e) => e.key)) {
    const value = byKey.get(key);
    if (value === undefined) throw keyDoesNotExist();
    storage[key] = value;
  }
  return storage;
}

/** PUT /bot_storage: adds or replaces the entries, all or none. */
export async function updateBotStorage(deps: AppDeps, bot: UserRow, entries: ReadonlyArray<[string, string]>): Promise<void> {
  checkBotCaller(bot);
  const limit = deps.config.botStorageSizeLimit;
  // A key given twice counts once, with its last value (a JSON object keeps the last one).
  const latest = new Map(entries);
  const sized = [...latest].map(([key, value]) => ({ key, value, size: codePoints(key) + codePoints(value) }));
  await transaction(deps.store, async (tx) => {
    await lockBotStorage(tx, bot.id);
    const current = await getBotStorageSizes(tx, bot.id, [...latest.keys()]);
    const difference = sized.reduce((sum, e) => sum + e.size - (current.get(e.key) ?? 0), 0);
    const total = (await getBotStorageTotal(tx, bot.id)) + difference;
    if (total > limit) {
      throw new ApiError(`Request exceeds storage limit by ${total - limit} characters. The limit is ${limit} characters.`);
    }
    await putBotStorageEntries(tx, bot.id, sized);
  });
}

/** DELETE /bot_storage: removes the named entries (every entry when `keys` is absent or empty). */
export async function removeBotStorage(deps: AppDeps, bot: UserRow, keys: readonly string[] | undefined): Promise<void> {
  checkBotCaller(bot);
  await transaction(deps.store, async (tx) => {
    await lockBotStorage(tx, bot.id);
    const targets = keys !== undefined && keys.length > 0 ? keys : (await getBotStorageEntries(tx, bot.id)).map((e) => e.key);
    const found = await getBotStorageSizes(tx, bot.id, targets);
    if (found.size < targets.length) throw keyDoesNotExist();
    await deleteBotStorageEntries(tx, bot.id, targets);
  });
}
