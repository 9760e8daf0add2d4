/**
 * Cross-realm probes for people and conversations: every way an endpoint of realm A takes a user,
 * bot, message, channel or user group, tried with realm B's. Each answer must equal the answer for
 * an id nothing has (after the id itself is masked out): realm B's objects are as absent from
 * realm A as objects that do not exist.
 */
import { unique } from "./objects.js";
import { del, get, MISSING, patch, post, probes, type Target } from "./isolation-seed.js";

export const CONVERSATION_TARGETS: Target[] = [
  {
    kind: "user",
    value: (b) => b.userId,
    missing: MISSING,
    probes: [
      ...probes(
        (id) => get(`/users/${id}`),
        (id) => patch(`/users/${id}`, { full_name: "Renamed" }),
        (id) => del(`/users/${id}`),
        (id) => post(`/users/${id}/reactivate`),
        (id) => get(`/users/${id}/presence`),
        (id) => get(`/users/${id}/status`),
        (id, a) => get(`/users/${id}/subscriptions/${a.channel.id}`),
        (id, a) => get(`/user_groups/${a.groupId}/members/${id}`),
        (id) => post("/messages", { type: "direct", to: [id], content: "hello" }),
        (id) => post("/typing", { op: "start", to: [id] }),
        (id) => post("/user_groups/create", { name: unique("probe group "), description: "", members: [id] }),
        (id, a) => post(`/user_groups/${a.groupId}/members`, { add: [id] }),
        (id) => post("/channels/create", { name: unique("probe channel "), subscribers: [id] }),
        (id, a) => post("/users/me/subscriptions", { subscriptions: [{ name: a.channel.name }], principals: [id] }),
        (id) => get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "sender", operand: id }] }),
      ),
    ],
  },
  {
    kind: "user email",
    value: (b) => b.userEmail,
    missing: "nobody@example.com",
    probes: probes(
      (email) => get(`/users/${email}`),
      (email) => get(`/users/${email}/presence`),
      (email) => post("/messages", { type: "direct", to: email, content: "hello" }),
      (email) => get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "dm", operand: email }] }),
    ),
  },
  {
    kind: "bot",
    value: (b) => b.botId,
    missing: MISSING,
    probes: probes((id) => patch(`/bots/${id}`, { full_name: "Renamed Bot" }), (id) => del(`/bots/${id}`)),
  },
  {
    kind: "message",
    value: (b) => b.messageId,
    missing: MISSING,
    probes: [
      ...probes(
        (id) => get(`/messages/${id}`),
        (id) => get(`/messages/${id}/history`),
        (id) => patch(`/messages/${id}`, { content: "rewritten" }),
        (id) => patch(`/messages/${id}`, { topic: "moved" }),
        (id) => del(`/messages/${id}`),
        (id) => post(`/messages/${id}/reactions`, { emoji_name: "octopus" }),
        (id) => del(`/messages/${id}/reactions`, { emoji_name: "octopus" }),
        (id) => post("/messages/flags", { messages: [id], op: "add", flag: "starred" }),
      ),
      { listing: true, request: (id) => get("/messages", { message_ids: [id] }) },
      { listing: true, request: (id) => get("/messages/matches_narrow", { msg_ids: [id], narrow: [] }) },
      { listing: true, request: (id) => get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "id", operand: id }] }) },
    ],
  },
  {
    kind: "direct message",
    value: (b) => b.directMessageId,
    missing: MISSING,
    probes: probes((id) => get(`/messages/${id}`), (id) => patch(`/messages/${id}`, { content: "rewritten" }), (id) => del(`/messages/${id}`)),
  },
  ...["channel", "private channel"].map(
    (kind): Target => ({
      kind,
      value: (b) => (kind === "channel" ? b.channel.id : b.privateChannel.id),
      missing: MISSING,
      probes: probes(
        (id) => get(`/streams/${id}`),
        (id) => get(`/streams/${id}/members`),
        (id) => patch(`/streams/${id}`, { description: "taken over" }),
        (id) => del(`/streams/${id}`),
        (id) => get(`/users/me/${id}/topics`),
        (id) => patch(`/users/me/subscriptions/${id}`, { property: "pin_to_top", value: "true" }),
        (id) => post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: id, property: "pin_to_top", value: true }] }),
        (id) => post("/mark_stream_as_read", { stream_id: id }),
        (id) => post("/mark_topic_as_read", { stream_id: id, topic_name: "probe" }),
        (id) => post("/user_topics", { stream_id: id, topic: "probe", visibility_policy: 1 }),
        (id) => patch("/users/me/subscriptions/muted_topics", { stream_id: id, topic: "probe", op: "add" }),
        (id) => post("/default_streams", { stream_id: id }),
        (id) => del("/default_streams", { stream_id: id }),
        (id) => post("/typing", { type: "stream", op: "start", stream_id: id, topic: "probe" }),
        (id) => post("/messages", { type: "stream", to: id, topic: "probe", content: "hello" }),
        (id, a) => patch(`/messages/${a.messageId}`, { stream_id: id }),
        (id) => post("/drafts", { drafts: [{ type: "stream", to: [id], topic: "probe", content: "draft" }] }),
        (id) => post("/invites", { invitee_emails: `${unique("probe")}@example.com`, stream_ids: [id] }),
        (id) => post("/invites/multiuse", { stream_ids: [id] }),
        (id) => patch("/realm", { new_stream_announcements_stream_id: id }),
        (id) => get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "channel", operand: id }] }),
      ),
    }),
  ),
  {
    kind: "channel name",
    value: (b) => b.privateChannel.name,
    missing: "no such channel",
    probes: probes(
      (name) => get("/get_stream_id", { stream: name }),
      (name) => post("/messages", { type: "stream", to: name, topic: "probe", content: "hello" }),
      (name) => post("/bots", { full_name: unique("Probe Bot "), short_name: unique("probe"), default_sending_stream: name }),
      (name) => del("/users/me/subscriptions", { subscriptions: [name] }),
    ),
  },
  {
    kind: "user group",
    value: (b) => b.groupId,
    missing: MISSING,
    probes: probes(
      (id) => patch(`/user_groups/${id}`, { description: "taken over" }),
      (id) => post(`/user_groups/${id}/deactivate`),
      (id, a) => post(`/user_groups/${id}/members`, { add: [a.userId] }),
      (id, a) => post(`/user_groups/${id}/subgroups`, { add: [a.groupId] }),
      (id) => get(`/user_groups/${id}/members`),
      (id, a) => get(`/user_groups/${id}/members/${a.userId}`),
      (id) => get(`/user_groups/${id}/subgroups`),
      (id) => post("/user_groups/create", { name: unique("probe group "), description: "", members: [], subgroups: [id] }),
      (id, a) => post(`/user_groups/${a.groupId}/subgroups`, { add: [id] }),
      (id) => post("/channels/create", { name: unique("probe channel "), subscribers: [], can_send_message_group: id }),
      (id, a) => patch(`/streams/${a.channel.id}`, { can_send_message_group: { new: id } }),
      (id) => post("/invites", { invitee_emails: `${unique("probe")}@example.com`, stream_ids: [], group_ids: [id] }),
      (id) => patch("/realm", { can_invite_users_group: { new: id } }),
    ),
  },
  {
    kind: "system group",
    value: (b) => b.systemGroupId,
    missing: MISSING,
    probes: probes(
      (id) => get(`/user_groups/${id}/members`),
      (id, a) => patch(`/streams/${a.channel.id}`, { can_send_message_group: { new: id } }),
      (id) => patch("/realm", { can_create_groups: { new: id } }),
    ),
  },
];
