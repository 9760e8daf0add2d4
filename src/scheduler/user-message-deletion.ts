/**
 * The server's worker for the messages of deactivated users that DELETE /users/{id} `actions`
 * asked to delete (FL 459): a DueWorker (due-worker.ts) over the "delete_user_messages" rows of
 * the durable queue, deleting one bounded batch per round (actions/messages/user-message-deletion.ts) and
 * giving the event loop a turn between rounds, so no request waits behind a large deletion.
 */
import { deleteDueUserMessages, nextUserMessageDeletionTime } from "../actions/messages/user-message-deletion.js";
import type { AppDeps } from "../deps.js";
import { DueWorker, type SchedulerOptions } from "./due-worker.js";

/** Messages deleted in one round (one transaction); Zulip's retention batches are 100 messages too. */
export const USER_MESSAGE_DELETION_BATCH = 100;

export class UserMessageDeletionWorker extends DueWorker {
  constructor(deps: AppDeps, opts: SchedulerOptions = {}) {
    super(deps, { deliverDue: deleteDueUserMessages, nextDue: nextUserMessageDeletionTime }, { batchSize: USER_MESSAGE_DELETION_BATCH, ...opts });
  }
}
