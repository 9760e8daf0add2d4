/**
 * A cluster worker's side of the cluster (WORKERS > 1), besides the event bus (ipc-bus.ts, when
 * there is no Redis): the forwarding of GET/DELETE /events to the worker owning the queue
 * (queue-forwarding.ts), and which users hold a queue taking message events in the other workers,
 * so that notifications judge a user idle as one process would (Zulip's receiver_is_off_zulip:
 * policy/notifications.ts isIdle; a user polling worker 1 is not emailed about a message that
 * went through worker 0).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { QueueRegistry } from "../events/registry.js";
import { sendToPrimary, type IpcChannel } from "./ipc-bus.js";
import { isParleyMessage, type PrimaryToWorker } from "./messages.js";
import { QueueForwarder, startForwardingServer } from "./queue-forwarding.js";

export interface WorkerLink {
  forwarder: QueueForwarder;
  /** Starts the forwarding server with the app's handler and tells the primary this worker serves. */
  serve(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<number>;
  close(): Promise<void>;
}

export function startWorkerLink(index: number, queues: QueueRegistry, channel: IpcChannel = process as IpcChannel): WorkerLink {
  const forwarder = new QueueForwarder(index);
  /** Users with a message-taking queue, per other worker. */
  const remote = new Map<number, Set<number>>();
  channel.on("message", (message) => {
    if (!isParleyMessage<PrimaryToWorker>(message)) return;
    if (message.parley === "owners") forwarder.setPorts(message.ports);
    if (message.parley !== "remote-message-queue-users") return;
    if (message.reset) remote.delete(message.worker);
    const users = remote.get(message.worker) ?? new Set<number>();
    for (const id of message.userIds) {
      if (message.present) users.add(id);
      else users.delete(id);
    }
    if (users.size > 0) remote.set(message.worker, users);
    else remote.delete(message.worker);
  });
  queues.onMessageQueuePresence = (userId, present) => sendToPrimary(channel, { parley: "message-queue-users", userIds: [userId], present });
  queues.remoteHasMessageQueue = (userId) => {
    for (const users of remote.values()) if (users.has(userId)) return true;
    return false;
  };
  let server: Server | null = null;
  return {
    forwarder,
    async serve(handle) {
      const started = await startForwardingServer(handle);
      server = started.server;
      sendToPrimary(channel, { parley: "ready", forwardPort: started.port });
      // Queues restored from the last graceful stop already hold users.
      const users = queues.messageQueueUserIds();
      if (users.length > 0) sendToPrimary(channel, { parley: "message-queue-users", userIds: users, present: true });
      return started.port;
    },
    async close() {
      const s = server;
      if (!s) return;
      // Forwarded polls in flight were answered by releaseWaiters; the rest may finish.
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
