/**
 * Changing messages and personal read state: edit/move (update-message), edit history (spec 4.15),
 * delete, personal flags, the deprecated mark-as-read endpoints, and Markdown preview (render-message).
 */
import { checkDeleteMessage } from "../actions/messages/delete-message.js";
import { checkUpdateMessage } from "../actions/message-edits/edit-message.js";
import { checkMarkAllAsRead, checkMarkChannelAsRead, checkUpdateMessageFlags } from "../actions/messages/flags.js";
import { getMessageHistory } from "../actions/message-edits/message-history.js";
import { renderContent } from "../actions/messages/render.js";
import { truncateContent } from "../actions/messages/send-message.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import { readTx } from "../store/db.js";

export const updateMessage = endpoint({
  method: "PATCH",
  path: "/messages/:message_id",
  auth: "user",
  params: {
    message_id: p.int().path(),
    content: p.str().optional(),
    topic: p.str().optional().alias("subject"),
    stream_id: p.int().optional(),
    propagate_mode: p.oneOf(["change_one", "change_later", "change_all"]).default("change_one"),
    send_notification_to_old_thread: p.bool().default(false),
    send_notification_to_new_thread: p.bool().default(true),
    prev_content_sha256: p.str().optional(),
  },
  async handler(ctx, params) {
    return checkUpdateMessage(ctx.deps, ctx.realm, ctx.user, params.message_id, {
      content: params.content,
      topic: params.topic,
      channelId: params.stream_id,
      propagateMode: params.propagate_mode,
      notifyOldThread: params.send_notification_to_old_thread,
      notifyNewThread: params.send_notification_to_new_thread,
      prevContentSha256: params.prev_content_sha256,
    });
  },
});

export const getMessageHistoryEndpoint = endpoint({
  method: "GET",
  path: "/messages/:message_id/history",
  auth: "user",
  params: {
    message_id: p.int().path(),
    allow_empty_topic_name: p.bool().default(false),
  },
  async handler(ctx, params) {
    return getMessageHistory(ctx.deps, ctx.realm, ctx.user, params.message_id, params.allow_empty_topic_name);
  },
});

export const deleteMessage = endpoint({
  method: "DELETE",
  path: "/messages/:message_id",
  auth: "user",
  params: { message_id: p.int().path() },
  async handler(ctx, params) {
    await checkDeleteMessage(ctx.deps, ctx.realm, ctx.user, params.message_id);
  },
});

export const updateMessageFlags = endpoint({
  method: "POST",
  path: "/messages/flags",
  auth: "user",
  params: { messages: p.intList(), op: p.str(), flag: p.str() },
  async handler(ctx, params) {
    const result = await checkUpdateMessageFlags(ctx.deps, ctx.user, params);
    // Zulip answers with the ids as requested ("useless, kept for compatibility"); the skipped
    // channels are reported only when marking unread (FL 355).
    const out: Record<string, unknown> = { messages: params.messages };
    if (params.flag === "read" && params.op === "remove") out.ignored_because_not_subscribed_channels = result.ignoredChannelIds;
    return out;
  },
});

export const markAllAsRead = endpoint({
  method: "POST",
  path: "/mark_all_as_read",
  auth: "user",
  params: {},
  async handler(ctx) {
    await checkMarkAllAsRead(ctx.deps, ctx.user);
    return { complete: true };
  },
});

export const markStreamAsRead = endpoint({
  method: "POST",
  path: "/mark_stream_as_read",
  auth: "user",
  params: { stream_id: p.int() },
  async handler(ctx, params) {
    await checkMarkChannelAsRead(ctx.deps, ctx.user, params.stream_id);
  },
});

export const markTopicAsRead = endpoint({
  method: "POST",
  path: "/mark_topic_as_read",
  auth: "user",
  params: { stream_id: p.int(), topic_name: p.str() },
  async handler(ctx, params) {
    await checkMarkChannelAsRead(ctx.deps, ctx.user, params.stream_id, params.topic_name);
  },
});

export const renderMessage = endpoint({
  method: "POST",
  path: "/messages/render",
  auth: "user",
  params: { content: p.str() },
  async handler(ctx, params) {
    const rendered = await renderContent({
      tx: readTx(ctx.deps.store),
      realm: ctx.realm,
      config: ctx.deps.config,
      senderId: ctx.user.id,
      // Rendered as it would be sent: truncated like a message (an 8 MB preview took 13 s, issue 16 F3).
      content: truncateContent(params.content),
    });
    return { rendered: rendered.html };
  },
});

export const messageEditEndpoints = [
  updateMessage,
  getMessageHistoryEndpoint,
  deleteMessage,
  updateMessageFlags,
  markAllAsRead,
  markStreamAsRead,
  markTopicAsRead,
  renderMessage,
];
