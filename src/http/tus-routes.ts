/**
 * Resumable uploads: the tus protocol at `/api/v1/tus` (spec 4.22; issue 7, item 4), served by
 * @tus/server. Every request but the CORS preflight needs the same HTTP Basic API-key credentials as
 * the REST API, or a browser session cookie (spec section 5.3; session-auth.ts). An upload belongs
 * to the user who created it: anyone else asking about it, resuming it or terminating it is told it
 * does not exist. The server's size limit applies (tus answers 413 past it; a limit of 0 refuses
 * every request), and so does the realm's upload quota: an upload whose declared length would
 * exceed it is refused at creation with 413 (as Zulip's tusd hook does, so clients do not retry),
 * and the quota is checked again when it finishes. When the last byte arrives, the file moves into
 * upload storage and becomes an attachment
 * exactly as with `POST /user_uploads`, and the final response carries the same JSON body
 * (`url`, `uri`, `filename`), as Zulip's does.
 *
 * Partial uploads wait in `{UPLOADS_DIR}/.tus` (not a path id any upload can have: those start with
 * a realm id), and are discarded a day after they were started. Locks are per process: with several
 * server processes, a resumed upload must reach the process that holds it (sticky routing).
 */
import type { Server, Upload } from "@tus/server";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { IncomingMessage } from "node:http";
import { join } from "node:path";
import { checkQuotaForUploadOfSize, doFinishResumableUpload, maxUploadBytes, uploadsDisabled } from "../actions/uploads/uploads.js";
import type { AppDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import { errorBody } from "./respond.js";
import { admitUser } from "./router.js";
import { authenticateBasicOrSession } from "./session-auth.js";
import type { RealmRow, UserRow } from "../store/types.js";

const TUS_PATH = "/api/v1/tus";
const EXPIRY_MS = 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Uppy retries a 400 but gives up on a 413, which is why Zulip's tusd hook refuses with it. */
const TUS_QUOTA_STATUS = 413;
/** Upload metadata key naming the uploader; whatever a client sends under it is replaced. */
const OWNER_KEY = "parley-owner";

/** The srvx request @tus/server hands its hooks, which keeps the Node request it came from. */
type TusRequest = Parameters<NonNullable<ConstructorParameters<typeof Server>[0]["onIncomingRequest"]>>[0];

const notFound = { status_code: 404, body: "The file for this url was not found\n" };

const ownerTag = (user: UserRow) => `${user.realm_id}:${user.id}`;

/** Unfinished uploads one user may hold at once (each reserves its declared size of the quota). */
export const MAX_UNFINISHED_UPLOADS_PER_USER = 20;

/**
 * The declared sizes of this process's unfinished uploads: they count against the realm's quota
 * from creation, so many unfinished uploads cannot hold more than the quota on disk (issue 16,
 * F11: 17.6 MiB of partial files under a 1 MiB quota). Uploads are sticky to one process (see
 * above), so each process knows the uploads it holds; entries past the expiry are dropped.
 */
class Reservations {
  private readonly byId = new Map<string, { realmId: number; userId: number; size: number; createdMs: number }>();

  constructor(private readonly nowMs: () => number) {}

  private prune(): void {
    const oldest = this.nowMs() - EXPIRY_MS;
    for (const [id, r] of this.byId) if (r.createdMs < oldest) this.byId.delete(id);
  }

  bytesOfRealm(realmId: number): number {
    this.prune();
    let total = 0;
    for (const r of this.byId.values()) if (r.realmId === realmId) total += r.size;
    return total;
  }

  countOfUser(userId: number): number {
    let count = 0;
    for (const r of this.byId.values()) if (r.userId === userId) count++;
    return count;
  }

  add(id: string, user: UserRow, size: number): void {
    this.byId.set(id, { realmId: user.realm_id, userId: user.id, size, createdMs: this.nowMs() });
  }

  release(id: string): void {
    this.byId.delete(id);
  }
}

export function registerTusRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { config } = deps;
  /** Who sent each request, authenticated before tus sees it. */
  const senders = new WeakMap<IncomingMessage, { user: UserRow; realm: RealmRow }>();
  const reservations = new Reservations(() => deps.clock.now() * 1000);
  const senderOf = (req: TusRequest) => {
    const sender = senders.get(req.runtime?.node?.req as IncomingMessage);
    if (!sender) throw notFound;
    return sender;
  };
  /**
   * Built on first use, so building the app touches no directory until someone uploads this way,
   * and the tus packages are not loaded into a server that never sees a resumable upload (S9).
   */
  let tus: Promise<Server> | null = null;
  const buildTusServer = async (): Promise<Server> => {
    const [{ FileStore }, { Server }] = await Promise.all([import("@tus/file-store"), import("@tus/server")]);
    const datastore = new FileStore({ directory: join(config.uploadsDir, ".tus"), expirationPeriodInMilliseconds: EXPIRY_MS });
    return new Server({
      path: TUS_PATH,
      datastore,
      relativeLocation: true,
      maxSize: maxUploadBytes(config),
      async onIncomingRequest(req, id) {
        const { user } = senderOf(req);
        if (req.method === "POST") return;
        const upload = await datastore.getUpload(id);
        if (upload.metadata?.[OWNER_KEY] !== ownerTag(user)) throw notFound;
        if (req.method === "DELETE") reservations.release(id);
      },
      async onUploadCreate(req, upload) {
        const { user, realm } = senderOf(req);
        // As Zulip's tusd pre-create hook: a length must be declared, so the quota can be checked now.
        if (upload.size === undefined) throw new ApiError("Deferred file size not allowed.");
        if (reservations.countOfUser(user.id) >= MAX_UNFINISHED_UPLOADS_PER_USER) {
          throw new ApiError(`You have ${MAX_UNFINISHED_UPLOADS_PER_USER} unfinished uploads; finish or cancel one first.`);
        }
        await checkQuotaForUploadOfSize(deps, realm, upload.size + reservations.bytesOfRealm(realm.id), TUS_QUOTA_STATUS);
        reservations.add(upload.id, user, upload.size);
        return { metadata: { ...upload.metadata, [OWNER_KEY]: ownerTag(user) } };
      },
      async onUploadFinish(req, upload: Upload) {
        const { user, realm } = senderOf(req);
        // A complete upload cannot be finished twice, so its partial file goes whatever happens
        // (a refusal past the quota included) rather than waiting a day for the sweep.
        let result;
        try {
          result = await doFinishResumableUpload(deps, realm, user, datastore.read(upload.id), upload.metadata ?? {});
        } finally {
          reservations.release(upload.id);
          await datastore.remove(upload.id);
        }
        return { status_code: 200, headers: { "Content-Type": "application/json" }, body: JSON.stringify({ result: "success", msg: "", ...result }) };
      },
      onResponseError(_req, err) {
        if (err instanceof ApiError) return { status_code: err.status, body: JSON.stringify(errorBody(err)) };
        return undefined;
      },
    });
  };
  const tusServer = () => (tus ??= buildTusServer());

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== "OPTIONS") {
      if (config.maxFileUploadSizeMib === 0) throw uploadsDisabled();
      const sender = await authenticateBasicOrSession(deps, request);
      // The same admission as POST /user_uploads: the API rate limit, and no incoming-webhook bots.
      const limits = await admitUser(deps, sender.user, false);
      if (limits) reply.headers(limits);
      senders.set(request.raw, sender);
    }
    reply.hijack();
    await (await tusServer()).handle(request.raw, reply.raw);
  };

  // An encapsulated scope, so only these routes leave PATCH bodies unread for tus to stream.
  void app.register(async (scope) => {
    scope.addContentTypeParser("application/offset+octet-stream", (_request, _payload, done) => done(null));
    const methods = ["POST", "HEAD", "PATCH", "DELETE", "OPTIONS"] as const;
    scope.route({ method: [...methods], url: TUS_PATH, handler: handle });
    scope.route({ method: [...methods], url: `${TUS_PATH}/*`, handler: handle });
    const sweep = setInterval(() => void tus?.then((server) => server.cleanUpExpiredUploads()).catch((err) => scope.log.error({ err }, "tus sweep failed")), SWEEP_INTERVAL_MS);
    sweep.unref();
    scope.addHook("onClose", async () => clearInterval(sweep));
  });
}
