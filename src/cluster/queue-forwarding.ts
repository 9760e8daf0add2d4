/**
 * Queue-affine routing between cluster workers. An event queue lives in the worker that created
 * it, and its id names that worker (`w1-…`, events/registry.ts). The kernel hands connections to
 * whichever worker accepts first, so a client's GET or DELETE /events often reaches another one:
 * that worker forwards the request over loopback to the owner's forwarding server (a second
 * listener of the same Fastify app on 127.0.0.1, port told by the primary) and pipes the answer
 * back. The owner authenticates it as any request; a client that goes away cancels the forwarded
 * poll, so the owner's parked poll ends too.
 *
 * An owner that is not running (it died; the primary is starting it again) has lost its queues:
 * the client gets BAD_EVENT_QUEUE_ID and registers again, once, on whichever worker answers.
 */
import { request as httpRequest, createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { queueOwnerIndex } from "../events/registry.js";
import type { QueueOwners } from "../deps.js";

/** Headers that describe one hop or the body, which the forwarded request carries afresh. */
const NOT_FORWARDED = new Set(["connection", "keep-alive", "content-length", "content-type", "transfer-encoding", "expect", "upgrade"]);

/** A request's headers as the owner receives them: this hop's own and the body's left out. */
export function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !NOT_FORWARDED.has(name)) out[name] = value;
  return out;
}

export class QueueForwarder implements QueueOwners {
  private ports: Record<number, number> = {};

  constructor(private readonly ownIndex: number) {}

  /** The primary's table of live workers' forwarding ports. */
  setPorts(ports: Record<number, number>): void {
    this.ports = ports;
  }

  ownerPort(queueId: string): number | undefined {
    const owner = queueOwnerIndex(queueId);
    return owner === null || owner === this.ownIndex ? undefined : this.ports[owner];
  }

  async forward(
    queueId: string,
    method: "GET" | "DELETE",
    query: Record<string, string>,
    headers: IncomingHttpHeaders,
    onClientGone: (cancel: () => void) => void,
  ): Promise<IncomingMessage | "local" | "lost"> {
    const owner = queueOwnerIndex(queueId);
    if (owner === null || owner === this.ownIndex) return "local";
    const port = this.ports[owner];
    if (port === undefined) return "lost";
    return new Promise((resolve) => {
      const upstream = httpRequest(
        { host: "127.0.0.1", port, method, path: `/api/v1/events?${new URLSearchParams(query).toString()}`, headers: forwardedHeaders(headers) },
        (answer) => resolve(answer),
      );
      // The owner stopped between the table and now: its queues went with it.
      upstream.on("error", () => resolve("lost"));
      onClientGone(() => upstream.destroy());
      upstream.end();
    });
  }
}

/** The owner's side: the same app, on a loopback port of its own. Resolves with the port. */
export function startForwardingServer(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(handle);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    // exclusive: a cluster worker's listen is otherwise the primary's, shared by every worker
    // (port 0 included) — this port must reach this worker alone.
    server.listen({ port: 0, host: "127.0.0.1", exclusive: true }, () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
}
