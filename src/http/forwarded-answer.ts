/**
 * Sends another worker's answer to a forwarded GET/DELETE /events as this worker's own
 * (cluster/queue-forwarding.ts): same status, body and headers, minus those of the hop. The body
 * is read whole first (it is one envelope the owner already held in memory) and sent as text, so
 * it goes through this worker's onSend hooks like any answer it makes itself.
 */
import type { IncomingMessage } from "node:http";
import type { FastifyReply } from "fastify";

/** Headers of an owner's answer that describe its hop, not the answer (also http/forwarded-poll.ts). */
export const HOP_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "date"]);

export async function relayForwardedAnswer(reply: FastifyReply, answer: IncomingMessage): Promise<{ raw: true }> {
  const chunks: Buffer[] = [];
  for await (const chunk of answer) chunks.push(chunk as Buffer);
  reply.code(answer.statusCode ?? 502);
  for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_HEADERS.has(name)) reply.header(name, value);
  void reply.send(Buffer.concat(chunks).toString("utf8"));
  return { raw: true };
}
