/**
 * POST /register against Zulip's current OpenAPI document (FL 378, ../shared/reference): for each
 * event type, exactly the keys the document says are "Present if" that type is fetched, and the
 * whole answer valid against the response schema. What Parley sends beyond FL 378 (Zulip sends it
 * too, at the level Parley advertises) and what it leaves out are listed here as data, each with
 * its reason; anything else fails (issue 15). Skips visibly when ../shared is absent.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { Ajv, type ValidateFunction } from "ajv";
import { parse } from "yaml";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { toJsonSchema, type Json } from "../helpers/contract/document.js";
import { createChannel } from "../helpers/messages.js";

const CURRENT_OPENAPI = resolve(process.cwd(), "../shared/reference/zulip-openapi-current.yaml");

/** Keys newer than FL 378, by the event type that fetches them (Zulip's zerver/lib/events.py). */
const NEWER_KEYS: Record<string, string[]> = {
  realm: [
    "max_channel_folder_name_length", "max_channel_folder_description_length", // channel folders (FL 389)
    "max_bulk_new_subscription_messages", // subscribe's bulk notification limit (Zulip 11.x)
    "server_report_message_types", // message reports (Zulip 11.x), read by the mobile app
    "realm_can_set_delete_message_policy_group", // FL 407
    "realm_welcome_message_custom_text", // FL 416
    "max_reminder_note_length", // reminder notes (FL 415)
    "realm_owner_full_content_access", // owners' access to private content, full exports without consent (FL 438)
    "gif_rating_policy_options", "realm_gif_rating_policy", // the GIPHY rating's new names (FL 442, 453)
    "realm_media_preview_size", // FL 469
    "realm_default_avatar_source", // FL 456
    "realm_send_channel_events_messages", // FL 434
    "realm_require_e2ee_push_notifications", // FL 409
    "realm_uuid", // FL 466
  ],
  giphy: ["tenor_api_key", "klipy_api_key"], // GIF providers beside GIPHY (FL 442, 486)
  video_calls: ["has_webex_token"], // Webex calls (FL 493)
  reminders: ["reminders"], // message reminders (FL 399)
  channel_folder: ["channel_folders"], // FL 389
  navigation_view: ["navigation_views"], // navigation views (Zulip 11.x)
  device: ["devices"], // client devices (FL 468)
};

/** Present in every answer: the queue's idle timeout (FL 481) besides the documented ones. */
const ALWAYS_NEWER = ["idle_queue_timeout_secs"];

/** Documented keys Parley leaves out, and why. */
const NOT_SENT: Record<string, string> = {
  can_subscribe_other_users: "no longer sent by Zulip's register (its events.py after FL 378); can_add_subscribers_group replaced it",
  demo_organization_scheduled_deletion_date: "present only for demo organizations, which Parley does not have",
  receives_typing_notifications: "a user setting, sent inside user_settings as Zulip does",
  giphy_rating_options: "renamed gif_rating_options at FL 442 and gif_rating_policy_options at FL 453; Zulip sends only the new name",
  realm_giphy_rating: "renamed realm_gif_rating_policy at FL 453; Zulip sends only the new name",
};

/** Documented keys without a "Present if" line, by the event type that fetches them. */
const UNLABELLED: Record<string, string> = { drafts: "drafts" };

/** Fields newer than FL 378 inside the answer's objects (path with * for array items → fields). */
const NEWER_FIELDS: Record<string, string[]> = {
  "/subscriptions/*": [
    "folder_id", "subscriber_count", "can_create_topic_group", "can_delete_any_message_group", "can_delete_own_message_group",
    "can_move_messages_out_of_channel_group", "can_move_messages_within_channel_group", "can_resolve_topics_group",
  ],
  "/user_settings": [
    "web_inbox_show_channel_folders", "resolved_topic_notice_auto_read_policy",
    "web_left_sidebar_unreads_count_summary", "web_left_sidebar_show_channel_folders", // FL 398, 411
  ],
  // Zulip's user objects carry is_imported_stub (its own tests' expected user dicts).
  "/realm_users/*": ["is_imported_stub"],
};
NEWER_FIELDS["/streams/*"] = NEWER_FIELDS["/subscriptions/*"];
NEWER_FIELDS["/realm_user_settings_defaults"] = NEWER_FIELDS["/user_settings"];
NEWER_FIELDS["/realm_non_active_users/*"] = NEWER_FIELDS["/realm_users/*"];

interface Contract {
  validate: ValidateFunction;
  /** Event type → the keys documented as present when it is fetched. */
  keysByType: Map<string, string[]>;
}

function loadContract(): Contract {
  const raw = parse(readFileSync(CURRENT_OPENAPI, "utf8")) as Json;
  const doc = toJsonSchema(raw) as Json;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ $id: "openapi", components: doc.components });
  const responseSchema = (root: Json) => {
    const post = ((root.paths as Json)["/register"] as Json).post as Json;
    return ((((post.responses as Json)["200"] as Json).content as Json)["application/json"] as Json).schema as Json;
  };
  const schema = responseSchema(doc);
  // The "Present if" notes are in the descriptions, which the validation schema leaves out.
  const properties = (responseSchema(raw).allOf as Json[])[1].properties as Record<string, Json>;
  const keysByType = new Map<string, string[]>();
  for (const [key, spec] of Object.entries(properties)) {
    const text = String(spec.description ?? "").replace(/\s+/g, " ");
    // "Present if `message` and `update_message_flags` are both present": filed under the latter,
    // which is fetched together with message below.
    const labelled = /Present if `([a-z_]+)`(?: and `([a-z_]+)`)?/.exec(text)?.slice(1).filter(Boolean).at(-1);
    const type = labelled ?? UNLABELLED[key] ?? "realm";
    if (["result", "msg", "ignored_parameters_unsupported", "queue_id", "last_event_id", "zulip_feature_level", "zulip_version", "zulip_merge_base"].includes(key)) continue;
    if (key in NOT_SENT) continue;
    keysByType.set(type, [...(keysByType.get(type) ?? []), key]);
  }
  return { validate: ajv.compile(schema), keysByType };
}

const ALWAYS = ["result", "msg", "queue_id", "last_event_id", "zulip_feature_level", "zulip_version", "zulip_merge_base", ...ALWAYS_NEWER];

describe("POST /register against Zulip's current OpenAPI", { skip: existsSync(CURRENT_OPENAPI) ? false : "../shared/reference/zulip-openapi-current.yaml is absent" }, () => {
  let t: TestRealm;
  let contract: Contract;
  before(async () => {
    contract = loadContract();
    t = await createTestRealm("sqlite");
    await createChannel(t, "Denmark", ["hamlet", "iago"]);
  });
  after(() => t.close());

  it("fetches for each event type exactly the keys the document lists for it", async () => {
    // Legacy sections: without user_settings_object, and unread_msgs needs message too.
    const requires: Record<string, string[]> = { update_message_flags: ["message"] };
    for (const [type, documented] of contract.keysByType) {
      const types = [type, ...(requires[type] ?? [])];
      const res = await t.as("hamlet").post("/register", { fetch_event_types: types, client_capabilities: { linkifier_url_template: true } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const expected = new Set([...documented, ...types.flatMap((x) => [...(contract.keysByType.get(x) ?? []), ...(NEWER_KEYS[x] ?? [])]), ...ALWAYS]);
      const got = Object.keys(res.body);
      assert.deepEqual(got.filter((k) => !expected.has(k)), [], `${type}: keys the document does not list for it`);
      assert.deepEqual(documented.filter((k) => !got.includes(k)), [], `${type}: documented keys missing`);
    }
  });

  it("answers the mobile app's register, and an all-defaults one, with nothing outside the schema but the listed newer fields", async () => {
    const mobile = {
      apply_markdown: true, client_gravatar: false, slim_presence: true, idle_queue_timeout: '"mobile"',
      client_capabilities: {
        notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true, stream_typing_notifications: true,
        user_settings_object: true, include_deactivated_groups: true, empty_topic_name: true, individual_emoji_changes: true,
      },
    };
    for (const params of [mobile, {}]) {
      const res = await t.as("hamlet").post("/register", params);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      contract.validate(res.body);
      const violations = (contract.validate.errors ?? []).filter((e) => {
        const path = e.instancePath.replace(/\/\d+/g, "/*");
        const extra = (e.params as { additionalProperty?: string }).additionalProperty;
        if (e.keyword !== "additionalProperty" && e.keyword !== "additionalProperties") return true;
        const allowed = path === "" ? [...Object.values(NEWER_KEYS).flat(), ...ALWAYS_NEWER] : (NEWER_FIELDS[path] ?? []);
        return !allowed.includes(extra ?? "");
      });
      assert.deepEqual(violations.map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`), []);
    }
  });
});
