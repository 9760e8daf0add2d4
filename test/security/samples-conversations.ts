/**
 * Permission-matrix requests for conversations: event queues, typing, channels, subscriptions,
 * messages, reactions, topics, uploads, drafts, scheduled messages and reminders. The shared channel has every fixture user
 * subscribed; messages others act on were sent by othello, who is none of the callers.
 */
import { unique } from "./objects.js";
import type { EndpointSample } from "./permission-samples.js";

const none = (): { params: Record<string, unknown> } => ({ params: {} });

export const CONVERSATION_SAMPLES: Record<string, EndpointSample> = {
  "POST /register": { build: () => ({ params: { event_types: ["message"], fetch_event_types: ["realm"] } }) },
  "GET /events": { build: async ({ o, caller }) => ({ params: { queue_id: await o.queue(caller), dont_block: true } }) },
  "DELETE /events": { build: async ({ o, caller }) => ({ params: { queue_id: await o.queue(caller) } }) },
  "POST /typing": { build: ({ o }) => ({ params: { op: "start", to: o.ids("othello") } }) },

  "POST /channels/create": { build: ({ o }) => ({ params: { name: unique("new channel "), subscribers: o.ids("othello") } }) },
  "GET /streams": { build: none },
  "GET /streams/:stream_id": { build: ({ shared }) => ({ path: { stream_id: shared.channel.id } }) },
  "GET /get_stream_id": { build: ({ shared }) => ({ params: { stream: shared.channel.name } }) },
  "PATCH /streams/:stream_id": { build: async ({ o }) => ({ path: { stream_id: (await o.channel(["othello"])).id }, params: { description: "changed" } }) },
  "DELETE /streams/:stream_id": { build: async ({ o }) => ({ path: { stream_id: (await o.channel(["othello"])).id } }) },
  "GET /streams/:stream_id/members": { build: ({ shared }) => ({ path: { stream_id: shared.channel.id } }) },
  "POST /default_streams": { build: async ({ o }) => ({ params: { stream_id: (await o.channel(["othello"])).id } }) },
  "DELETE /default_streams": {
    build: async ({ o }) => {
      const { id } = await o.channel(["othello"]);
      await o.ok("iago", { method: "POST", path: "/default_streams", params: { stream_id: id } });
      return { params: { stream_id: id } };
    },
  },

  // Subscriptions: the caller joins a fresh public channel, or leaves one it was subscribed to.
  "GET /users/me/subscriptions": { build: none },
  "POST /users/me/subscriptions": { build: async ({ o }) => ({ params: { subscriptions: [{ name: (await o.channel(["othello"])).name }] } }) },
  "DELETE /users/me/subscriptions": { build: async ({ o, caller }) => ({ params: { subscriptions: [(await o.channel([caller])).name] } }) },
  "PATCH /users/me/subscriptions": { build: async ({ o }) => ({ params: { add: [{ name: (await o.channel(["othello"])).name }] } }) },
  "POST /users/me/subscriptions/properties": {
    build: ({ shared }) => ({ params: { subscription_data: [{ stream_id: shared.channel.id, property: "pin_to_top", value: true }] } }),
  },
  "PATCH /users/me/subscriptions/:stream_id": { build: ({ shared }) => ({ path: { stream_id: shared.channel.id }, params: { property: "pin_to_top", value: "true" } }) },
  "GET /users/:user_id/subscriptions/:stream_id": { build: ({ o, shared }) => ({ path: { user_id: o.realm.users.othello.id, stream_id: shared.channel.id } }) },

  "POST /messages": { build: ({ shared }) => ({ params: { type: "stream", to: shared.channel.name, topic: "matrix", content: "hello" } }) },
  "GET /messages/:message_id": { build: ({ shared }) => ({ path: { message_id: shared.messageId } }) },
  "GET /messages": { build: () => ({ params: { anchor: "newest", num_before: 5, num_after: 0 } }) },
  "GET /messages/matches_narrow": { build: ({ shared }) => ({ params: { msg_ids: [shared.messageId], narrow: [] } }) },
  "POST /messages/flags/narrow": { build: () => ({ params: { anchor: "newest", num_before: 5, num_after: 0, narrow: [], op: "add", flag: "starred" } }) },
  "PATCH /messages/:message_id": {
    build: async ({ o, shared }) => ({ path: { message_id: await o.message("othello", shared.channel.name) }, params: { topic: "moved", propagate_mode: "change_one" } }),
  },
  "GET /messages/:message_id/history": { build: ({ shared }) => ({ path: { message_id: shared.messageId } }) },
  "DELETE /messages/:message_id": { build: async ({ o, shared }) => ({ path: { message_id: await o.message("othello", shared.channel.name) } }) },
  "POST /messages/flags": { build: ({ shared }) => ({ params: { messages: [shared.messageId], op: "add", flag: "starred" } }) },
  "POST /mark_all_as_read": { build: none },
  "POST /mark_stream_as_read": { build: ({ shared }) => ({ params: { stream_id: shared.channel.id } }) },
  "POST /mark_topic_as_read": { build: ({ shared }) => ({ params: { stream_id: shared.channel.id, topic_name: "matrix" } }) },
  "POST /messages/render": { build: () => ({ params: { content: "**bold**" } }) },
  "POST /messages/:message_id/reactions": { build: async ({ o, shared }) => ({ path: { message_id: await o.message("othello", shared.channel.name) }, params: { emoji_name: "octopus" } }) },
  "DELETE /messages/:message_id/reactions": {
    build: async ({ o, shared, caller }) => {
      const messageId = await o.message("othello", shared.channel.name);
      await o.ok(caller, { method: "POST", path: `/messages/${messageId}/reactions`, params: { emoji_name: "octopus" } });
      return { path: { message_id: messageId }, params: { emoji_name: "octopus" } };
    },
  },

  "POST /submessage": {
    build: async ({ o, shared }) => ({
      params: { message_id: await o.message("othello", shared.channel.name, "matrix", "/poll Lunch?\nSoup\nSalad"), msg_type: "widget", content: JSON.stringify({ type: "vote", key: "canned,0", vote: 1 }) },
    }),
  },
  "GET /users/me/:stream_id/topics": { build: ({ shared }) => ({ path: { stream_id: shared.channel.id } }) },
  "POST /user_topics": { build: ({ shared }) => ({ params: { stream_id: shared.channel.id, topic: "matrix", visibility_policy: 1 } }) },
  "PATCH /users/me/subscriptions/muted_topics": { build: ({ shared }) => ({ params: { stream_id: shared.channel.id, topic: "matrix", op: "add" } }) },

  "POST /user_uploads": { build: () => ({ files: [{ filename: `${unique("upload")}.txt`, content: "payload" }] }) },
  "GET /user_uploads/:realm_id_str/*": {
    build: ({ shared }) => {
      const [realmIdStr, ...rest] = shared.upload.pathId.split("/");
      return { path: { realm_id_str: realmIdStr, "*": rest.join("/") } };
    },
  },
  "GET /attachments": { build: none },
  "DELETE /attachments/:attachment_id": { build: async ({ o, caller }) => ({ path: { attachment_id: (await o.upload(caller)).attachmentId } }) },

  "GET /drafts": { build: none },
  "POST /drafts": { build: ({ shared }) => ({ params: { drafts: [{ type: "stream", to: [shared.channel.id], topic: "matrix", content: "draft" }] } }) },
  "PATCH /drafts/:draft_id": {
    build: async ({ o, shared, caller }) => ({
      path: { draft_id: await o.draft(caller, shared.channel.id) },
      params: { draft: { type: "stream", to: [shared.channel.id], topic: "matrix", content: "edited" } },
    }),
  },
  "DELETE /drafts/:draft_id": { build: async ({ o, shared, caller }) => ({ path: { draft_id: await o.draft(caller, shared.channel.id) } }) },

  "GET /saved_snippets": { build: none },
  "POST /saved_snippets": { build: () => ({ params: { title: "matrix", content: "a snippet" } }) },
  "PATCH /saved_snippets/:saved_snippet_id": { build: async ({ o, caller }) => ({ path: { saved_snippet_id: await o.savedSnippet(caller) }, params: { title: "edited" } }) },
  "DELETE /saved_snippets/:saved_snippet_id": { build: async ({ o, caller }) => ({ path: { saved_snippet_id: await o.savedSnippet(caller) } }) },

  // Scheduled messages and reminders: the caller's own, to the shared channel and message.
  "GET /scheduled_messages": { build: none },
  "POST /scheduled_messages": {
    build: ({ o, shared }) => ({ params: { type: "stream", to: shared.channel.id, topic: "matrix", content: "later", scheduled_delivery_timestamp: o.later() } }),
  },
  "PATCH /scheduled_messages/:scheduled_message_id": {
    build: async ({ o, shared, caller }) => ({ path: { scheduled_message_id: await o.scheduledMessage(caller, shared.channel.id) }, params: { content: "edited" } }),
  },
  "DELETE /scheduled_messages/:scheduled_message_id": {
    build: async ({ o, shared, caller }) => ({ path: { scheduled_message_id: await o.scheduledMessage(caller, shared.channel.id) } }),
  },
  "GET /reminders": { build: none },
  "POST /reminders": { build: ({ o, shared }) => ({ params: { message_id: shared.messageId, scheduled_delivery_timestamp: o.later(), note: "matrix" } }) },
  "DELETE /reminders/:reminder_id": { build: async ({ o, shared, caller }) => ({ path: { reminder_id: await o.reminder(caller, shared.messageId) } }) },

  // The shared message and channel: every caller can read the one and post in the other.
  "GET /messages/:message_id/read_receipts": { build: ({ shared }) => ({ path: { message_id: shared.messageId } }) },
  "GET /streams/:stream_id/email_address": { build: ({ shared }) => ({ path: { stream_id: shared.channel.id } }) },
};
