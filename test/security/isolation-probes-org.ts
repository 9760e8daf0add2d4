/**
 * Cross-realm probes for the organization's objects and a user's own things: uploads and
 * attachments, channel folders, linkifiers, invitations, custom profile fields, custom emoji,
 * drafts, event queues, push devices, saved snippets, client devices, scheduled messages and reminders.
 * Same rule as isolation-probes.ts.
 */
import { del, get, LATER, MISSING, patch, post, probes, type Target } from "./isolation-seed.js";

export const ORGANIZATION_TARGETS: Target[] = [
  {
    kind: "upload",
    value: (b) => b.upload.pathId,
    missing: "999/ab/cdefghijklmnopqrstuvwx/missing.txt",
    probes: [
      ...probes(
        (pathId) => get(`/user_uploads/${pathId}`),
        (pathId) => get(`/thumbnail/status/${pathId}`),
      ),
      // The bytes themselves, at the site root, with realm A's credentials.
      { request: (pathId) => ({ method: "GET", path: `/user_uploads/${pathId}`, root: true }) },
    ],
  },
  {
    kind: "attachment",
    value: (b) => b.upload.attachmentId,
    missing: MISSING,
    probes: probes((id) => del(`/attachments/${id}`)),
  },
  {
    kind: "channel folder",
    value: (b) => b.folderId,
    missing: MISSING,
    probes: probes(
      (id) => patch(`/channel_folders/${id}`, { description: "taken over" }),
      (id) => patch(`/channel_folders/${id}`, { is_archived: true }),
      (id, a) => patch("/channel_folders", { order: [a.folderId, id] }),
      (id) => post("/channels/create", { name: `probe channel in ${id}`, subscribers: [], folder_id: id }),
      (id, a) => patch(`/streams/${a.channel.id}`, { folder_id: id }),
    ),
  },
  {
    kind: "linkifier",
    value: (b) => b.linkifierId,
    missing: MISSING,
    probes: probes(
      (id) => patch(`/realm/filters/${id}`, { pattern: "taken-(?P<id>[0-9]+)", url_template: "https://evil.example.com/{id}" }),
      (id) => del(`/realm/filters/${id}`),
      (id, a) => patch("/realm/linkifiers", { ordered_linkifier_ids: [a.linkifierId, id] }),
    ),
  },
  {
    kind: "email invitation",
    value: (b) => b.inviteId,
    missing: MISSING,
    probes: probes((id) => del(`/invites/${id}`), (id) => post(`/invites/${id}/resend`)),
  },
  {
    kind: "invitation link",
    value: (b) => b.multiuseInviteId,
    missing: MISSING,
    probes: probes((id) => del(`/invites/multiuse/${id}`)),
  },
  {
    kind: "custom profile field",
    value: (b) => b.fieldId,
    missing: MISSING,
    probes: [
      // Like Zulip, the order must name every field of the realm, and other ids are ignored.
      { listing: true, request: (id, a) => patch("/realm/profile_fields", { order: [a.fieldId, id] }) },
      ...probes(
        (id) => patch(`/realm/profile_fields/${id}`, { name: "Taken over" }),
        (id) => del(`/realm/profile_fields/${id}`),
        (id) => patch("/users/me/profile_data", { data: [{ id, value: "a value" }] }),
        (id) => del("/users/me/profile_data", { data: [id] }),
        (id, a) => patch(`/users/${a.userId}`, { profile_data: [{ id, value: "a value" }] }),
      ),
    ],
  },
  {
    kind: "custom emoji",
    value: (b) => b.emojiName,
    missing: "no_such_emoji",
    probes: probes(
      (name) => del(`/realm/emoji/${name}`),
      (name, a) => post(`/messages/${a.messageId}/reactions`, { emoji_name: name }),
      (name) => post("/users/me/status", { emoji_name: name }),
    ),
  },
  {
    kind: "custom emoji id",
    value: (b) => b.emojiId,
    missing: String(MISSING),
    probes: probes((code, a) => post(`/messages/${a.messageId}/reactions`, { emoji_name: "borrowed", emoji_code: code, reaction_type: "realm_emoji" })),
  },
  {
    kind: "draft",
    value: (b) => b.draftId,
    missing: MISSING,
    probes: probes(
      (id, a) => patch(`/drafts/${id}`, { draft: { type: "stream", to: [a.channel.id], topic: "probe", content: "taken over" } }),
      (id) => del(`/drafts/${id}`),
    ),
  },
  {
    kind: "event queue",
    value: (b) => b.queueId,
    missing: "1700000000:987654321",
    probes: probes((id) => get("/events", { queue_id: id, dont_block: true }), (id) => del("/events", { queue_id: id })),
  },
  {
    kind: "push device",
    value: (b) => b.pushDeviceId,
    missing: MISSING,
    probes: probes((id) => post("/mobile_push/e2ee/test_notification", { device_id: id })),
  },
  {
    kind: "saved snippet",
    value: (b) => b.savedSnippetId,
    missing: MISSING,
    probes: probes((id) => patch(`/saved_snippets/${id}`, { title: "taken over" }), (id) => del(`/saved_snippets/${id}`)),
  },
  {
    kind: "scheduled message",
    value: (b) => b.scheduledMessageId,
    missing: MISSING,
    probes: probes(
      (id) => patch(`/scheduled_messages/${id}`, { content: "taken over" }),
      (id) => patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: LATER }),
      (id) => del(`/scheduled_messages/${id}`),
    ),
  },
  {
    kind: "reminder",
    value: (b) => b.reminderId,
    missing: MISSING,
    probes: probes((id) => del(`/reminders/${id}`)),
  },
  {
    kind: "client device",
    value: (b) => b.clientDeviceId,
    missing: MISSING,
    probes: probes(
      (id) => post("/remove_client_device", { device_id: id }),
      (id) => post("/mobile_push/register", { device_id: id, push_key_id: 1, push_key: `MT${"A".repeat(42)}` }),
    ),
  },
];
