/**
 * A user's own settings for channels they are subscribed to (POST /users/me/subscriptions/properties
 * and PATCH /users/me/subscriptions/{stream_id}): color, pinning, muting (also under its legacy
 * inverted name in_home_view) and per-channel notification settings. Every change is checked
 * before any is written; each sends the user a `subscription` update event.
 */
import { accessChannelById } from "../../access/channels.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { isHexColor } from "../../policy/channel-settings.js";
import type { Tx } from "../../store/db.js";
import { updateSubscription } from "../../store/subscriptions.js";
import type { SubscriptionRow, UserRow } from "../../store/types.js";

export interface PropertyChange {
  stream_id: number;
  property: string;
  value: unknown;
}

const BOOLEAN_PROPERTIES = new Set([
  "in_home_view",
  "is_muted",
  "pin_to_top",
  "desktop_notifications",
  "audible_notifications",
  "push_notifications",
  "email_notifications",
  "wildcard_mentions_notify",
]);

type Column = keyof Omit<SubscriptionRow, "id" | "user_id" | "recipient_id" | "active" | "is_user_active">;

/** Zulip's SubscriptionPropertyChangeRequest validation. */
function checkChange(change: PropertyChange): { column: Column; value: string | boolean } {
  if (change.property === "color") {
    if (!isHexColor(change.value)) throw new ApiError("color is not a valid hex color code");
    return { column: "color", value: change.value };
  }
  if (!BOOLEAN_PROPERTIES.has(change.property)) throw new ApiError(`Unknown subscription property: ${change.property}`);
  if (typeof change.value !== "boolean") throw new ApiError(`${change.property} is not a boolean`);
  // in_home_view is the pre-2.1 name of "not muted".
  if (change.property === "in_home_view") return { column: "is_muted", value: !change.value };
  return { column: change.property as Column, value: change.value };
}

export async function checkUpdateSubscriptionProperties(deps: AppDeps, tx: Tx, user: UserRow, changes: readonly PropertyChange[]): Promise<void> {
  const planned = [];
  for (const change of changes) {
    const { column, value } = checkChange(change);
    const { channel, viewer } = await accessChannelById(tx, user, change.stream_id, { requireContent: true, requireActive: true });
    if (!viewer.subscribed) throw new ApiError(`Not subscribed to channel ID ${change.stream_id}`);
    planned.push({ channel, column, value });
  }
  for (const { channel, column, value } of planned) {
    await updateSubscription(tx, user.id, channel.recipient_id as number, { [column]: value });
    // Clients that predate is_muted still follow in_home_view (FL 139 sends both).
    if (column === "is_muted") {
      publishOnCommit(tx, deps.events, { type: "subscription", op: "update", property: "in_home_view", value: !value, stream_id: channel.id }, [user.id]);
    }
    publishOnCommit(tx, deps.events, { type: "subscription", op: "update", property: column, value, stream_id: channel.id }, [user.id]);
  }
}
