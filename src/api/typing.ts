/** `POST /typing` (spec 4.1). */
import { checkSendTyping, checkTypingType } from "../actions/typing.js";
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
    });
  },
});

export const typingEndpoints = [setTypingStatus];
