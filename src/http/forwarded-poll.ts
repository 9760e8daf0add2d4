/**
 * A plain long-poll for a queue another cluster worker holds (WORKERS > 1), relayed before Fastify
 * (issue 21: a long-poll re-request must cost far less than a full API request). The kernel gives
 * a client's connection to whichever worker accepts it, so with two workers about half of all polls
 * arrive at the worker that does not hold their queue. Through the route (api/events.ts) such a
 * poll was authenticated and rate-limited here, then forwarded and authenticated again by the
 * owner; here it is piped to the owner's forwarding port as it came, and the owner — which answers
 * it on its own long-poll path — does all the checking. The owner's answer comes back as it is
 * (status, body and headers but this hop's), as through the route.
 *
 * When the owner cannot be reached (it stopped since the primary's last table), the request goes
 * to Fastify's route instead, which authenticates and answers BAD_EVENT_QUEUE_ID as before: a
 * client without valid credentials learns nothing about queues either way.
 */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { forwardedHeaders } from "../cluster/queue-forwarding.js";
import { HOP_HEADERS } from "./forwarded-answer.js";


export function relayPollToOwner(
  port: number,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  fallback: (req: IncomingMessage, res: ServerResponse) => void,
  done: (status: number) => void,
): void {
  let answered = false;
  // The owner logs and answers under this worker's request id: one id for both log lines.
  const headers = { ...forwardedHeaders(req.headers), "x-request-id": requestId };
  const upstream = httpRequest({ host: "127.0.0.1", port, method: "GET", path: req.url, headers }, (answer) => {
    answered = true;
    const chunks: Buffer[] = [];
    answer.on("data", (chunk: Buffer) => chunks.push(chunk));
    answer.on("error", () => res.destroy());
    answer.on("end", () => {
      const status = answer.statusCode ?? 502;
      if (!res.destroyed) {
        const body = Buffer.concat(chunks);
        res.statusCode = status;
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_HEADERS.has(name)) res.setHeader(name, value);
        res.setHeader("content-length", body.length);
        res.end(body);
      }
      done(status);
    });
  });
  upstream.on("error", () => {
    if (res.destroyed) return;
    if (answered) res.destroy();
    // Nothing was sent yet and the request has no body: the route can still answer it.
    else fallback(req, res);
  });
  // A client that goes away cancels the owner's parked poll too.
  res.once("close", () => upstream.destroy());
  upstream.end();
}
