/** `POST /typing` (spec 4.1) and typing while editing a message (`POST /messages/{id}/typing`, FL 351/361). */
import { checkSendEditTyping, checkSendTyping, checkTypingType } from "../actions/messages/typing.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const setTypingStatus = endpoint({
  method: "POST",
  path: "/typing",
  auth: "user",
  params: {
    type: p.str().default("direct"),
    op: p.oneOf(["start", "stop"] as const),
    to: p.intList().optional(),
    stream_id: p.int().optional(),
    topic: p.str().optional(),
  },
  async handler(ctx, params) {
    const type = checkTypingType(params.type);
    await checkSendTyping(ctx.deps, ctx.user, {
      type,
      op: params.op,
      // `to` is ignored for channel typing, and stream_id/topic for direct (spec 4.1).
      to: type === "direct" ? params.to : undefined,
      streamId: type === "direct" ? undefined : params.stream_id,
      topic: type === "direct" ? undefined : params.topic,
    }, ctx.stamp);
  },
});

/**
 * Zulip named this `POST /message_edit_typing` (message_id in the body) from FL 351 until FL 361,
 * both within 10.0's development; released servers serve only this path, and so does Parley.
 */
export const setTypingStatusForMessageEdit = endpoint({
  method: "POST",
  path: "/messages/:message_id/typing",
  auth: "user",
  params: { message_id: p.int().path(), op: p.oneOf(["start", "stop"] as const) },
  async handler(ctx, params) {
    await checkSendEditTyping(ctx.deps, ctx.realm, ctx.user, params.message_id, params.op);
  },
});

export const typingEndpoints = [setTypingStatus, setTypingStatusForMessageEdit];
