/**
 * The server's sender of missed-message emails and mobile pushes: a DueWorker (due-worker.ts) over
 * the pending notifications, sending through actions/notifications/deliver.ts. Zulip's
 * missedmessage_emails and missedmessage_mobile_notifications queue workers do this work; here the
 * queue is the store, so pending notifications survive restarts, and several processes share it
 * (each batch is leased to one of them).
 */
import { deliverDueNotifications, nextNotificationTime } from "../actions/notifications/deliver.js";
import type { AppDeps } from "../deps.js";
import { DueWorker, type SchedulerOptions } from "./due-worker.js";

export class NotificationWorker extends DueWorker {
  constructor(deps: AppDeps, opts: SchedulerOptions = {}) {
    super(deps, { deliverDue: (d, limit) => deliverDueNotifications(d, limit), nextDue: nextNotificationTime }, opts);
  }
}
