/**
 * Sends another worker's answer to a forwarded GET/DELETE /events as this worker's own
 * (cluster/queue-forwarding.ts): same status, body and headers, minus those of the hop.
 */
import type { IncomingMessage } from "node:http";
import type { FastifyReply } from "fastify";

const HOP_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "date"]);

export function relayForwardedAnswer(reply: FastifyReply, answer: IncomingMessage): { raw: true } {
  reply.code(answer.statusCode ?? 502);
  for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_HEADERS.has(name)) reply.header(name, value);
  void reply.send(answer);
  return { raw: true };
}
