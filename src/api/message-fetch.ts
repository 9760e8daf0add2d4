/**
 * Message fetching by narrow: GET /messages (spec 4.8), GET /messages/matches_narrow and
 * POST /messages/flags/narrow (Zulip's update-message-flags-for-narrow).
 */
import { getMessages } from "../actions/messages/fetch-messages.js";
import { checkUpdateFlagsForNarrow } from "../actions/messages/flags-narrow.js";
import { messagesMatchingNarrow } from "../actions/messages/message-search.js";
import { invalidParam } from "../errors.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import { parseNarrow, type NarrowTerm } from "../lib/narrow.js";
import { readTx } from "../store/db.js";
import { fakeEmailDomain } from "../policy/email-visibility.js";

const nonNegative = (value: number, name: string) => {
  if (value < 0) throw invalidParam(`${name} is too small`);
  return value;
};

/** `narrow` as JSON; `null` reads as no filter. */
const narrowParam = () => p.json<NarrowTerm[]>((value) => (value === null ? [] : parseNarrow(value)));

export const getMessagesEndpoint = endpoint({
  method: "GET",
  path: "/messages",
  auth: "user",
  params: {
    anchor: p.str().optional(),
    include_anchor: p.bool().optional(),
    anchor_date: p.str().optional(),
    num_before: p.int().check(nonNegative).optional(),
    num_after: p.int().check(nonNegative).optional(),
    narrow: narrowParam().default([]),
    client_gravatar: p.bool().default(true),
    apply_markdown: p.bool().default(true),
    message_ids: p.intList().optional(),
    allow_empty_topic_name: p.bool().default(false),
    use_first_unread_anchor: p.bool().optional(),
  },
  async handler(ctx, params) {
    return getMessages(readTx(ctx.deps.store), ctx.realm, ctx.user, {
      narrow: params.narrow,
      anchor: params.anchor,
      anchorDate: params.anchor_date,
      includeAnchor: params.include_anchor,
      numBefore: params.num_before,
      numAfter: params.num_after,
      messageIds: params.message_ids,
      useFirstUnreadAnchor: params.use_first_unread_anchor,
      applyMarkdown: params.apply_markdown,
      gravatar: ctx.deps.config.enableGravatar,
      clientGravatar: params.client_gravatar,
      allowEmptyTopicName: params.allow_empty_topic_name,
      viewer: { user: ctx.user, emailDomain: fakeEmailDomain(ctx.deps.config, ctx.realm.string_id) },
    });
  },
});

export const matchesNarrowEndpoint = endpoint({
  method: "GET",
  path: "/messages/matches_narrow",
  auth: "user",
  params: {
    msg_ids: p.intList(),
    narrow: narrowParam(),
  },
  async handler(ctx, params) {
    return { messages: await messagesMatchingNarrow(readTx(ctx.deps.store), ctx.user, params.msg_ids, params.narrow) };
  },
});

export const flagsForNarrowEndpoint = endpoint({
  method: "POST",
  path: "/messages/flags/narrow",
  auth: "user",
  params: {
    anchor: p.str(),
    include_anchor: p.bool().default(true),
    num_before: p.int().check(nonNegative),
    num_after: p.int().check(nonNegative),
    narrow: narrowParam(),
    op: p.str(),
    flag: p.str(),
  },
  async handler(ctx, params) {
    return checkUpdateFlagsForNarrow(ctx.deps, ctx.user, {
      anchor: params.anchor,
      includeAnchor: params.include_anchor,
      numBefore: params.num_before,
      numAfter: params.num_after,
      narrow: params.narrow,
      op: params.op,
      flag: params.flag,
    });
  },
});

export const messageFetchEndpoints = [getMessagesEndpoint, matchesNarrowEndpoint, flagsForNarrowEndpoint];
