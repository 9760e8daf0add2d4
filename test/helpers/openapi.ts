/**
 * Zulip's OpenAPI description (../shared/reference/zulip-openapi.yaml) as a validator for the
 * events Parley publishes. The file is FL 261; fields added to events by later feature levels
 * are listed in NEWER_FIELDS and NEWER_FIELDS_BY_TYPE (each with the level that added it) and set
 * aside before validation, newer values and shapes are checked by withNewerValues and
 * newerShapeProblems, so everything else is held to the schema exactly. Absent file → `available` false.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { parse } from "yaml";

export const OPENAPI_PATH = resolve(process.cwd(), "../shared/reference/zulip-openapi.yaml");

/**
 * Object fields newer than FL 261 (Zulip API changelog), removed at any depth before validation.
 * Channel objects: is_archived (FL 315), is_recently_active (FL 323), can_*_group settings
 * (FL 197–406), folder_id (FL 389), topics_policy (FL 392), subscriber_count (FL 394).
 */
const NEWER_FIELDS = new Set([
  "is_archived", "is_recently_active", "folder_id", "topics_policy", "subscriber_count",
  "can_add_subscribers_group", "can_administer_channel_group", "can_create_topic_group",
  "can_delete_any_message_group", "can_delete_own_message_group", "can_move_messages_out_of_channel_group",
  "can_move_messages_within_channel_group", "can_resolve_topics_group", "can_send_message_group",
  "can_subscribe_group",
  // Not in the yaml at all, but sent by Zulip's event queue to the queue that sent the message.
  "local_message_id",
]);

/**
 * Fields newer than FL 261 within one event type only (names too generic to strip everywhere):
 * stream delete's stream_ids (FL 343); realm update_dict's newer settings (listed below); user
 * objects' is_imported_stub (FL 10.0); custom profile fields' editable_by_user (FL 296); user
 * groups' creator_id and date_created (FL 292), deactivated (FL 290) and the can_*_group settings
 * beyond can_mention_group (FL 197-305); linkifiers' example_input, reverse_template and
 * alternative_url_templates (Zulip 10-11).
 */
const NEWER_FIELDS_BY_TYPE: Record<string, ReadonlySet<string>> = {
  // stream delete's stream_ids replaces the deprecated streams (FL 343).
  stream: new Set(["stream_ids"]),
  // Realm settings in realm/update_dict data newer than FL 261: can_create_public_channel_group
  // (264), can_create_private_channel_group (266), direct_message_initiator_group and
  // direct_message_permission_group (270), can_create_web_public_channel_group (280),
  // can_create_groups and can_manage_all_groups (299), can_add_custom_emoji_group (307),
  // can_move_messages_between_channels_group (310), can_move_messages_between_topics_group (316),
  // can_invite_users_group (321), moderation_request_channel_id (331), can_create_bots_group and
  // can_create_write_only_bots_group (344), can_summarize_topics_group (350),
  // can_mention_many_users_group (352), can_manage_billing_group (363),
  // can_set_topics_policy_group (392), can_set_delete_message_policy_group (407).
  realm: new Set([
    "can_create_public_channel_group", "can_create_private_channel_group", "direct_message_initiator_group",
    "direct_message_permission_group", "can_create_web_public_channel_group", "can_create_groups", "can_manage_all_groups",
    "can_add_custom_emoji_group", "can_move_messages_between_channels_group", "can_move_messages_between_topics_group",
    "can_invite_users_group", "moderation_request_channel_id", "can_create_bots_group", "can_create_write_only_bots_group",
    "can_summarize_topics_group", "can_mention_many_users_group", "can_manage_billing_group", "can_set_topics_policy_group",
    "can_set_delete_message_policy_group",
  ]),
  realm_user: new Set(["is_imported_stub"]),
  custom_profile_fields: new Set(["editable_by_user"]),
  user_group: new Set([
    "creator_id", "date_created", "deactivated", "can_add_members_group", "can_join_group", "can_leave_group",
    "can_manage_group", "can_remove_members_group",
  ]),
  realm_linkifiers: new Set(["example_input", "reverse_template", "alternative_url_templates"]),
};

/** channel_folder events (Zulip 11, FL 389+): add carries the folder, update its changed data. */
function channelFolderProblems(event: Record<string, unknown>): string[] {
  const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
  if (event.op === "add") {
    const folder = event.channel_folder as Record<string, unknown>;
    const keys = ["id", "name", "description", "rendered_description", "creator_id", "date_created", "is_archived"];
    return isObject(folder) && keys.every((k) => k in folder) ? [] : ["channel_folder add needs the folder object"];
  }
  if (event.op === "update") return typeof event.channel_folder_id === "number" && isObject(event.data) ? [] : ["bad channel_folder update"];
  if (event.op === "reorder") return Array.isArray(event.order) ? [] : ["bad channel_folder reorder"];
  return [`unknown channel_folder op ${String(event.op)}`];
}

/** The reminder object of Zulip's get-reminders (FL 399), as reminders add events carry it. */
const REMINDER_FIELDS: Record<string, (v: unknown) => boolean> = {
  reminder_id: Number.isInteger,
  type: (v) => v === "private",
  to: (v) => Array.isArray(v) && v.every(Number.isInteger),
  content: (v) => typeof v === "string",
  rendered_content: (v) => typeof v === "string",
  scheduled_delivery_timestamp: Number.isInteger,
  failed: (v) => typeof v === "boolean",
  reminder_target_message_id: Number.isInteger,
};

/** reminders events (FL 399): add carries reminder objects, remove the id. */
function reminderProblems(event: Record<string, unknown>): string[] {
  if (event.op === "remove") return Number.isInteger(event.reminder_id) ? [] : ["reminders remove needs reminder_id"];
  if (event.op !== "add" || !Array.isArray(event.reminders)) return [`bad reminders event ${String(event.op)}`];
  return (event.reminders as Array<Record<string, unknown>>).flatMap((r) => {
    const keys = Object.keys(r).sort().join();
    if (keys !== Object.keys(REMINDER_FIELDS).sort().join()) return [`reminder fields ${keys}`];
    return Object.entries(REMINDER_FIELDS).filter(([k, ok]) => !ok(r[k])).map(([k]) => `reminder ${k} is ${JSON.stringify(r[k])}`);
  });
}

/**
 * Event shapes introduced after FL 261, checked by hand: the simplified presence event
 * (`simplified_presence_events` capability, FL 419) is {type, presences: {id: timestamps}};
 * channel folders (FL 389); default_streams carries channel ids (FL 330); reminders (FL 399).
 */
function newerShapeProblems(event: Record<string, unknown>): string[] | null {
  if (event.type === "channel_folder") return channelFolderProblems(event);
  if (event.type === "reminders") return reminderProblems(event);
  if (event.type === "default_streams") {
    const ids = event.default_streams;
    return Array.isArray(ids) && ids.every((id) => Number.isInteger(id)) ? [] : ["default_streams must be a list of channel ids"];
  }
  if (event.type === "presence" && "presences" in event) {
    const entries = Object.values(event.presences as Record<string, Record<string, unknown>>);
    const ok = entries.every((p) => typeof p.active_timestamp === "number" && typeof p.idle_timestamp === "number");
    return ok ? [] : ["simplified presence entries need active_timestamp and idle_timestamp"];
  }
  return null;
}

/**
 * stream update values newer than FL 261, validated as if they were a plain integer: null for
 * folder_id (a channel leaving its folder, FL 389) and first_message_id (a channel whose last
 * message is gone); an anonymous group {direct_members, direct_subgroups} for the can_*_group
 * settings (FL 320 onwards).
 */
const NULLABLE_STREAM_PROPERTIES = new Set(["folder_id", "first_message_id"]);

function withNewerValues(event: Json): Json {
  if (event.type !== "stream" || event.op !== "update") return event;
  const property = String(event.property);
  const nullable = event.value === null && NULLABLE_STREAM_PROPERTIES.has(property);
  const anonymousGroup = property.startsWith("can_") && typeof event.value === "object" && event.value !== null && "direct_members" in event.value;
  return nullable || anonymousGroup ? { ...event, value: 0 } : event;
}

function withoutNewerFields(node: unknown, alsoNewer: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(node)) return node.map((v) => withoutNewerFields(v, alsoNewer));
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => !NEWER_FIELDS.has(k) && !alsoNewer.has(k))
      .map(([k, v]) => [k, withoutNewerFields(v, alsoNewer)]),
  );
}

export type Json = Record<string, unknown>;

/** OpenAPI 3.0 → JSON Schema for Ajv: refs into one document, `nullable` as a null alternative. */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === "nullable" || k === "example" || k === "examples") continue;
    out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `openapi${v}` : toJsonSchema(v);
  }
  if ((node as Json).nullable === true) return { anyOf: [out, { type: "null" }] };
  return out;
}

export interface EventValidator {
  available: boolean;
  /** Problems with the event, or [] when it matches one of the schemas for its type/op. */
  check(event: Json): string[];
}

let cached: EventValidator | undefined;

export function eventValidator(): EventValidator {
  if (cached) return cached;
  if (!existsSync(OPENAPI_PATH)) return (cached = { available: false, check: () => [] });
  const doc = toJsonSchema(parse(readFileSync(OPENAPI_PATH, "utf8"))) as Json;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ $id: "openapi", components: (doc as { components: Json }).components });
  const get = ((doc.paths as Json)["/events"] as Json).get as Json;
  const schema = ((((get.responses as Json)["200"] as Json).content as Json)["application/json"] as Json).schema as Json;
  const props = Object.assign({}, ...((schema.allOf as Json[]) ?? [schema]).map((p) => (p.properties as Json) ?? {})) as Json;
  const alternatives = ((props.events as Json).items as Json).oneOf as Json[];
  const byType = new Map<string, Array<{ op: string[] | null; validate: ValidateFunction }>>();
  for (const alt of alternatives) {
    // Some events (reaction add/remove) declare their properties inside an allOf.
    const p = Object.assign({}, alt.properties ?? {}, ...((alt.allOf as Json[] | undefined) ?? []).map((part) => part.properties ?? {})) as Json;
    const typeEnum = ((((p.type as Json)?.allOf as Json[]) ?? []).find((x) => x.enum) as Json | undefined)?.enum as string[] | undefined;
    if (!typeEnum) continue;
    const op = ((p.op as Json)?.enum as string[]) ?? null;
    const validate = ajv.compile(alt);
    for (const t of typeEnum) byType.set(t, [...(byType.get(t) ?? []), { op, validate }]);
  }
  cached = {
    available: true,
    check(event) {
      const newer = newerShapeProblems(event);
      if (newer) return newer;
      const candidates = (byType.get(String(event.type)) ?? []).filter((c) => !c.op || c.op.includes(String(event.op)));
      if (candidates.length === 0) return [`no schema for event type ${String(event.type)} op ${String(event.op)}`];
      const trimmed = withoutNewerFields(withNewerValues({ id: 0, ...event }), NEWER_FIELDS_BY_TYPE[String(event.type)]);
      const errors: string[] = [];
      for (const c of candidates) {
        if (c.validate(trimmed)) return [];
        errors.push(...(c.validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`));
      }
      return errors;
    },
  };
  return cached;
}
