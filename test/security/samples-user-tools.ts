/**
 * Permission-matrix requests for what users do around their own account and messages: muting users,
 * navigation views, another user's channels, typing while editing, reporting a message, a
 * thumbnail's status, and (administrators) deleting a topic. See permission-samples.ts for the shape.
 */
import { unique } from "./objects.js";
import type { EndpointSample } from "./permission-samples.js";

const none = (): { params: Record<string, unknown> } => ({ params: {} });

export const USER_TOOL_SAMPLES: Record<string, EndpointSample> = {
  "POST /users/me/muted_users/:muted_user_id": { build: async ({ o }) => ({ path: { muted_user_id: (await o.user()).id } }) },
  "DELETE /users/me/muted_users/:muted_user_id": {
    build: async ({ o, caller }) => {
      const { id } = await o.user();
      await o.ok(caller, { method: "POST", path: `/users/me/muted_users/${id}` });
      return { path: { muted_user_id: id } };
    },
  },

  "GET /navigation_views": { build: none },
  "POST /navigation_views": { build: () => ({ params: { fragment: `narrow/${unique("matrix")}`, is_pinned: true, name: unique("View ") } }) },
  "PATCH /navigation_views/*": {
    build: async ({ o, caller }) => {
      const fragment = `narrow/${unique("matrix")}`;
      await o.ok(caller, { method: "POST", path: "/navigation_views", params: { fragment, is_pinned: true, name: unique("View ") } });
      return { path: { "*": fragment }, params: { is_pinned: false } };
    },
  },
  "DELETE /navigation_views/*": {
    build: async ({ o, caller }) => {
      const fragment = `narrow/${unique("matrix")}`;
      await o.ok(caller, { method: "POST", path: "/navigation_views", params: { fragment, is_pinned: true, name: unique("View ") } });
      return { path: { "*": fragment } };
    },
  },

  "GET /users/:user_id/channels": { build: ({ o }) => ({ path: { user_id: o.realm.users.othello.id } }) },
  // The caller's own message in the shared channel.
  "POST /messages/:message_id/typing": { build: async ({ o, shared, caller }) => ({ path: { message_id: await o.message(caller, shared.channel.name) }, params: { op: "start" } }) },
  // othello's message in the shared channel, reported to a private moderation channel.
  "POST /messages/:message_id/report": {
    build: async ({ o, shared }) => {
      const params = { name: unique("moderation "), subscribers: o.ids("iago"), invite_only: true };
      const { id } = await o.ok("iago", { method: "POST", path: "/channels/create", params });
      await o.ok("iago", { method: "PATCH", path: "/realm", params: { moderation_request_channel_id: id } });
      return { path: { message_id: shared.messageId }, params: { report_type: "spam" } };
    },
  },
  "GET /thumbnail/status/:realm_id_str/*": {
    build: ({ shared }) => {
      const [realmIdStr, ...rest] = shared.upload.pathId.split("/");
      return { path: { realm_id_str: realmIdStr, "*": rest.join("/") } };
    },
  },
  // Deleting a topic of othello's in the shared channel: administrators only (x-requires-administrator).
  "POST /streams/:stream_id/delete_topic": {
    build: async ({ o, shared }) => {
      const topic = unique("doomed ");
      await o.message("othello", shared.channel.name, topic);
      return { path: { stream_id: shared.channel.id }, params: { topic_name: topic } };
    },
  },
};
