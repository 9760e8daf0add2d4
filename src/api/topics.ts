/**
 * Topic endpoints: a channel's topic list (spec 4.19), per-user topic visibility (POST /user_topics),
 * the deprecated muted-topics PATCH (spec 4.4) and deleting a topic.
 */
import { checkDeleteTopic } from "../actions/messages/delete-topic.js";
import { getChannelTopics } from "../actions/messages/topic-history.js";
import { VISIBILITY_POLICIES, checkSetUserTopic, checkUpdateMutedTopic } from "../actions/users/user-topics.js";
import { invalidParam } from "../errors.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import { MAX_TOPIC_LENGTH } from "../lib/topics.js";
import { readTx } from "../store/db.js";

export const getTopics = endpoint({
  method: "GET",
  path: "/users/me/:stream_id/topics",
  auth: "user",
  params: {
    stream_id: p.int().path(),
    allow_empty_topic_name: p.bool().default(false),
  },
  async handler(ctx, params) {
    return { topics: await getChannelTopics(readTx(ctx.deps.store), ctx.user, params.stream_id, params.allow_empty_topic_name) };
  },
});

export const updateUserTopic = endpoint({
  method: "POST",
  path: "/user_topics",
  auth: "user",
  params: {
    stream_id: p.int(),
    topic: p.str({ maxLength: MAX_TOPIC_LENGTH }),
    visibility_policy: p.int().check((value, name) => {
      if (!VISIBILITY_POLICIES.includes(value)) throw invalidParam(`Invalid ${name}`);
      return value;
    }),
  },
  async handler(ctx, params) {
    await checkSetUserTopic(ctx.deps, ctx.user, {
      channelId: params.stream_id,
      topic: params.topic,
      visibilityPolicy: params.visibility_policy,
    });
  },
});

export const updateMutedTopic = endpoint({
  method: "PATCH",
  path: "/users/me/subscriptions/muted_topics",
  auth: "user",
  params: {
    stream_id: p.int().optional(),
    stream: p.str().optional(),
    topic: p.str({ maxLength: MAX_TOPIC_LENGTH }),
    op: p.oneOf(["add", "remove"]),
  },
  async handler(ctx, params) {
    await checkUpdateMutedTopic(ctx.deps, ctx.user, {
      streamId: params.stream_id,
      streamName: params.stream,
      topic: params.topic,
      op: params.op,
    });
  },
});

/** Zulip's delete-topic: administrators only; `complete` false asks the client to call again (FL 211). */
export const deleteTopic = endpoint({
  method: "POST",
  path: "/streams/:stream_id/delete_topic",
  auth: "admin",
  params: { stream_id: p.int().path(), topic_name: p.str() },
  async handler(ctx, params) {
    return checkDeleteTopic(ctx.deps, ctx.user, params.stream_id, params.topic_name);
  },
});

export const topicEndpoints = [getTopics, updateUserTopic, updateMutedTopic, deleteTopic];
