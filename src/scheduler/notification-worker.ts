/**
 * The server's sender of missed-message emails and mobile pushes: a DueWorker (due-worker.ts) over
 * the pending notifications, sending through actions/notifications/deliver.ts. Zulip's
 * missedmessage_emails and missedmessage_mobile_notifications queue workers do this work; here the
 * queue is the store, so pending notifications survive restarts, and several processes share it
 * (each batch is leased to one of them). Each round also looks (every few minutes) for realms
 * whose weekly digest falls due, and queues those digests as pending notifications
 * (actions/notifications/digest.ts), which the same rounds then send.
 */
import { deliverDueNotifications, nextNotificationTime } from "../actions/notifications/deliver.js";
import { lookForDueDigests } from "../actions/notifications/digest.js";
import type { AppDeps } from "../deps.js";
import { DueWorker, type SchedulerOptions } from "./due-worker.js";

export class NotificationWorker extends DueWorker {
  constructor(deps: AppDeps, opts: SchedulerOptions = {}) {
    const deliverDue = async (d: AppDeps, limit: number) => {
      await lookForDueDigests(d);
      return deliverDueNotifications(d, limit);
    };
    super(deps, { deliverDue, nextDue: nextNotificationTime }, opts);
  }
}
