/**
 * `manage send-digests` (after Zulip's enqueue_digest_emails management command): queues the
 * digest emails of every realm whose period is due now (or, with --now, today's period whatever
 * the realm's weekday), then sends what is due among the pending notifications, as a server's
 * notification worker would. A period already queued is not queued again, by this command or by
 * a running server, so running it twice sends nothing twice.
 */
import { deliverDueNotifications } from "../../actions/notifications/deliver.js";
import { enqueueDueDigests } from "../../actions/notifications/digest.js";
import type { AppDeps } from "../../deps.js";
import { readTx } from "../../store/db.js";
import { withCliDeps } from "../cli-deps.js";
import { FLAG, STRING, type Command } from "../command-spec.js";
import { realmNamed } from "../commands.js";

type Values = Record<string, string | undefined>;

/** Batches (one user's emails or pushes, or one digest) sent per run at most. */
export const SEND_DIGESTS_MAX_BATCHES = 10_000;

export async function runSendDigests(deps: AppDeps, v: Values) {
  const realmId = v.realm === undefined ? undefined : (await realmNamed(readTx(deps.store), v.realm)).id;
  const queued = await enqueueDueDigests(deps, { realmId, now: v.now === "true" });
  const sent = await deliverDueNotifications(deps, SEND_DIGESTS_MAX_BATCHES);
  return { queued, batches_sent: sent };
}

export const DIGEST_COMMANDS: Record<string, Command> = {
  "send-digests": {
    summary: "Queues the digest emails due now (each realm's once a period) and sends what is due.",
    options: { realm: STRING, now: FLAG },
    flags: { realm: "only this organization (its subdomain)", now: "today's digest, whatever the organization's digest weekday" },
    run: (store, v, config) => withCliDeps(store, config, (deps) => runSendDigests(deps, v)),
  },
};
