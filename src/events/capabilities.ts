/**
 * The client capabilities of POST /register (api/register-queue, parameter client_capabilities),
 * every one Zulip defines up to feature level 496, with where Parley honours it. A client sends
 * what its server's feature level allows, so a name Parley does not know is ignored, never an
 * error; a known one must be a boolean, as in Zulip.
 */
import { invalidParam } from "../errors.js";

export interface ClientCapability {
  /** The feature level that introduced it (0: Zulip 2.1, before feature levels). */
  featureLevel: number;
  /** What declaring it changes, and the code that does it. */
  honouredBy: string;
}

export const CLIENT_CAPABILITIES: Readonly<Record<string, ClientCapability>> = {
  notification_settings_null: {
    featureLevel: 0,
    honouredBy: "channel notification settings stay null when not customised (events/state/channels.ts subscriptionState)",
  },
  bulk_message_deletion: {
    featureLevel: 13,
    honouredBy: "delete_message events carry message_ids; Parley sends the bulk shape to every client (zulip-facts section f)",
  },
  user_avatar_url_field_optional: {
    featureLevel: 18,
    honouredBy: "the server may leave avatar_url out; Parley always sends it, which the capability allows (events/state/people.ts)",
  },
  stream_typing_notifications: { featureLevel: 58, honouredBy: "channel typing events only reach declaring queues (events/queue.ts)" },
  user_settings_object: {
    featureLevel: 89,
    honouredBy: "no legacy settings keys or events besides user_settings (events/state/index.ts, events/user-settings-events.ts)",
  },
  linkifier_url_template: {
    featureLevel: 176,
    honouredBy: "realm_linkifiers is empty in register, and realm_linkifiers events skipped, without it (events/state/index.ts, actions/realm/linkifiers.ts)",
  },
  user_list_incomplete: {
    featureLevel: 232,
    honouredBy:
      "a guest limited by can_access_all_users_group gets no \"Unknown user\" placeholders in realm_users (events/state/people.ts) nor realm_user add for new users they may not access (actions/users/user-events.ts, only_without)",
  },
  include_deactivated_groups: { featureLevel: 294, honouredBy: "deactivated groups and their events (events/state/people.ts, actions/groups/user-groups.ts)" },
  archived_channels: { featureLevel: 315, honouredBy: "archived channels and their events (events/state/channels.ts, actions/channels/archive-channel.ts)" },
  empty_topic_name: { featureLevel: 334, honouredBy: '"" topics shown as realm_empty_topic_display_name without it (events/topic-names.ts)' },
  simplified_presence_events: { featureLevel: 419, honouredBy: "presence events in the {presences} shape (events/queue.ts)" },
  individual_emoji_changes: {
    featureLevel: 491,
    honouredBy: "realm_emoji add / update_one events instead of the whole-list update (actions/realm/realm-emoji.ts)",
  },
};

/** The capabilities a client declared true; unknown names are dropped. */
export function parseClientCapabilities(value: unknown, name: string): Record<string, boolean> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidParam(`${name} is not a dict`);
  const declared: Record<string, boolean> = {};
  for (const [key, on] of Object.entries(value)) {
    if (!Object.hasOwn(CLIENT_CAPABILITIES, key)) continue;
    if (typeof on !== "boolean") throw invalidParam(`${name}["${key}"] is not a boolean`);
    if (on) declared[key] = true;
  }
  return declared;
}
