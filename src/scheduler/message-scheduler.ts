/**
 * The server's delivery of scheduled messages and reminders: a DueWorker (due-worker.ts) over the
 * scheduled_messages rows, sending through actions/messages/scheduled-delivery.ts. Zulip runs the same loop
 * as its deliver_scheduled_messages worker, at minute granularity. Each row is claimed by one
 * process (store/scheduled-messages.ts).
 */
import { deliverDue, nextScheduledDelivery } from "../actions/messages/scheduled-delivery.js";
import type { AppDeps } from "../deps.js";
import { DueWorker, type SchedulerOptions } from "./due-worker.js";

export type { SchedulerOptions, Timers } from "./due-worker.js";

export class MessageScheduler extends DueWorker {
  constructor(deps: AppDeps, opts: SchedulerOptions = {}) {
    super(deps, { deliverDue, nextDue: nextScheduledDelivery }, opts);
  }
}
