/**
 * Ids inside values, for the realm importer (docs/EXPORT-FORMAT.md, "Ids"): an imported realm's
 * rows get new ids, so every id a text or JSON value carries moves with them — upload paths
 * (`/user_uploads/{realm_id}/…`), mentions and channel links in rendered HTML (`data-user-id`,
 * `data-stream-id`, `#narrow/channel/{id}-…`, `/near/{message_id}`), silent mentions in the
 * Markdown source (`@_**Name|{id}**`), navigation views' URL fragments (`narrow/channel/{id}-…`),
 * direct-message group keys and JSON id lists. An id the
 * export does not hold is left as it was: it points nowhere in either realm.
 */

export type IdTable = "users" | "channels" | "user_groups" | "messages" | "realm_emoji";

/** Old id → new id of one table, or undefined when the export does not hold it. */
export type IdLookup = (table: IdTable, oldId: number) => number | undefined;

function swap(lookup: IdLookup, table: IdTable, digits: string): string {
  return String(lookup(table, Number(digits)) ?? digits);
}

/** The realm's prefix in upload storage keys and URLs (attachments, thumbnails, custom emoji). */
export function rewriteRealmPaths(text: string, oldRealmId: number, newRealmId: number): string {
  return text.replace(
    new RegExp(`(/user_uploads/(?:thumbnail/)?|/user_avatars/)${oldRealmId}/`, "g"),
    (_, prefix: string) => `${prefix}${newRealmId}/`,
  );
}

/** A storage key of the realm (`{realm}/…`, `thumbnail/{realm}/…`, `user_avatars/{realm}/…`) under the new realm. */
export function rewriteStorageKey(key: string, oldRealmId: number, newRealmId: number): string {
  const match = /^(thumbnail\/|user_avatars\/)?(\d+)\//.exec(key);
  if (!match || Number(match[2]) !== oldRealmId) return key;
  return `${match[1] ?? ""}${newRealmId}/${key.slice(match[0].length)}`;
}

/** Message content (Markdown source or rendered HTML) with its ids moved. */
export function rewriteContent(text: string, lookup: IdLookup, oldRealmId: number, newRealmId: number): string {
  return rewriteRealmPaths(text, oldRealmId, newRealmId)
    .replace(/data-user-id="(\d+)"/g, (_, id: string) => `data-user-id="${swap(lookup, "users", id)}"`)
    .replace(/data-user-group-id="(\d+)"/g, (_, id: string) => `data-user-group-id="${swap(lookup, "user_groups", id)}"`)
    .replace(/data-stream-id="(\d+)"/g, (_, id: string) => `data-stream-id="${swap(lookup, "channels", id)}"`)
    .replace(/#narrow\/(stream|channel)\/(\d+)-/g, (_, word: string, id: string) => `#narrow/${word}/${swap(lookup, "channels", id)}-`)
    .replace(/\/(near|with)\/(\d+)/g, (_, word: string, id: string) => `/${word}/${swap(lookup, "messages", id)}`)
    .replace(/#narrow\/dm\/([\d,]+)-/g, (_, ids: string) => `#narrow/dm/${ids.split(",").map((id) => swap(lookup, "users", id)).join(",")}-`)
    .replace(/(@_?\*\*[^*|\n]+\|)(\d+)\*\*/g, (_, head: string, id: string) => `${head}${swap(lookup, "users", id)}**`)
    .replace(/(#\*\*[^*\n]+@)(\d+)\*\*/g, (_, head: string, id: string) => `${head}${swap(lookup, "messages", id)}**`);
}

/** A JSON list of ids (`[1,2]`), moved; anything else is returned as it was. */
export function rewriteIdList(json: string, lookup: IdLookup, table: IdTable): string {
  let ids: unknown;
  try {
    ids = JSON.parse(json);
  } catch {
    return json;
  }
  if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id))) return json;
  return JSON.stringify((ids as number[]).map((id) => lookup(table, id) ?? id));
}

/** A direct-message group's key (sorted member ids joined by commas), moved and sorted again. */
export function rewriteMemberKey(key: string, lookup: IdLookup): string {
  return key
    .split(",")
    .map((id) => lookup("users", Number(id)) ?? Number(id))
    .sort((a, b) => a - b)
    .join(",");
}

/** Narrow operators whose operand starts with ids (Zulip's hash_util): which table they name. */
const FRAGMENT_OPERAND_TABLES: Record<string, IdTable> = {
  channel: "channels", stream: "channels",
  dm: "users", "pm-with": "users", "dm-including": "users", "group-pm-with": "users", sender: "users",
  near: "messages", with: "messages", id: "messages",
};

/**
 * A navigation view's fragment (`narrow/channel/12-general/topic/x`, `narrow/dm/5,6-group`,
 * `narrow/sender/7-…`, `narrow/near/100`; negated operators too) with the ids of its operands
 * moved; the slug after the ids and other operators stay as they are.
 */
export function rewriteFragment(fragment: string, lookup: IdLookup): string {
  const parts = fragment.split("/");
  if (parts[0] !== "narrow") return fragment;
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const table = FRAGMENT_OPERAND_TABLES[(parts[i] as string).replace(/^-/, "")];
    if (!table) continue;
    parts[i + 1] = (parts[i + 1] as string).replace(/^(\d+(?:,\d+)*)(?=-|$)/, (ids: string) => ids.split(",").map((id) => swap(lookup, table, id)).join(","));
  }
  return parts.join("/");
}
