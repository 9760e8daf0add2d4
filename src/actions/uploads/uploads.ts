/**
 * Uploading a file (spec 4.22) and finding the file a URL names for someone allowed to read it
 * (issue 7, items 1 and 2). Bytes stream straight from the request to storage; the attachment row
 * is written only once the whole file is stored, its thumbnails made (thumbnails.ts) and every
 * check has passed, the realm's upload quota included.
 */
import type { Readable } from "node:stream";
import { accessAttachmentByPath, canReadAttachment, fileNotFound } from "../../access/attachments.js";
import type { Config } from "../../config.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { publishOnCommit } from "../../events/bus.js";
import { getAttachmentById, getRealmUploadSpaceUsed, insertAttachment, lockRealmUploads, type AttachmentRow } from "../../store/attachments.js";
import { readTx, transaction, type Tx } from "../../store/db.js";
import { insertImageAttachment } from "../../store/image-attachments.js";
import { getRealmBySubdomain } from "../../store/realms.js";
import type { RealmRow, UserRow } from "../../store/types.js";
import { getUserById } from "../../store/users.js";
import { contentTypeFor } from "../../uploads/content-types.js";
import { newPathId, sanitizeFilename, uploadUrl } from "../../uploads/names.js";
import { uploadStorage, type UploadStorage } from "../../uploads/storage.js";
import { parseTemporaryToken, temporaryUrl, TEMPORARY_URL_SECONDS, verifyTemporaryGrant } from "../../uploads/temporary-url.js";
import { presentAttachment } from "./attachments.js";
import { deleteThumbnailFiles, generateThumbnails, type ThumbnailedImage } from "./thumbnails.js";

/** One file part of a multipart body, as the HTTP layer hands it over (shape of @fastify/multipart's). */
export interface IncomingFile {
  filename: string;
  mimetype: string;
  file: Readable & { truncated: boolean };
}

/** A file already in storage, waiting for its attachment row. */
export interface StoredUpload {
  pathId: string;
  fileName: string;
  size: number;
  contentType: string;
}

/** What an upload answers (spec 4.22): `uri` is the deprecated alias of `url`. */
export type UploadResult = {
  url: string;
  uri: string;
  filename: string;
};

export const uploadsDisabled = () => new ApiError("File uploads are disabled on this server.");

export const fileTooLarge = (mib: number) =>
  new ApiError(`File is larger than this server's configured maximum upload size (${mib} MiB).`);

/** Zulip's RealmUploadQuotaError; the tus endpoint sends it as a 413 (tus.ts). */
export const quotaExceeded = (status = 400) =>
  new ApiError("Upload would exceed your organization's upload quota.", "REALM_UPLOAD_QUOTA", status);

const MiB = 1024 * 1024;

/** The largest accepted file in bytes; 0 means uploads are off (zulip-facts section c). */
export function maxUploadBytes(config: Config): number {
  return config.maxFileUploadSizeMib * MiB;
}

/** Zulip's check_upload_within_quota: the realm's files plus this one must fit its quota. */
async function checkWithinQuota(tx: Tx, config: Config, realmId: number, size: number, status?: number): Promise<void> {
  if (config.uploadQuotaMib === null) return;
  if ((await getRealmUploadSpaceUsed(tx, realmId)) + size > config.uploadQuotaMib * MiB) throw quotaExceeded(status);
}

/**
 * An early, unlocked quota check for an upload of a known (or, at 0, any) size, so a file that
 * cannot fit is refused before its bytes are sent or processed. doRecordUpload checks again.
 */
export async function checkQuotaForUploadOfSize(deps: AppDeps, realm: RealmRow, size: number, status?: number): Promise<void> {
  await checkWithinQuota(readTx(deps.store), deps.config, realm.id, size, status);
}

/** Streams a file to storage under a fresh path id, its name and type made safe first. */
async function storeStream(storage: UploadStorage, realm: RealmRow, clientName: string, declaredType: string | undefined, body: Readable): Promise<StoredUpload> {
  const fileName = sanitizeFilename(clientName);
  const contentType = contentTypeFor(declaredType, fileName);
  const pathId = newPathId(realm.id, fileName);
  const { size } = await storage.put(pathId, body, contentType);
  return { pathId, fileName, size, contentType };
}

/**
 * `POST /user_uploads`: exactly one file part (other fields are ignored, as Zulip does). The parser
 * stops passing bytes on past the limit (the part arrives `truncated`), so an oversized upload costs
 * at most the limit in storage, and is removed again. Extra file parts are drained, not stored.
 */
export async function checkUploadFile(
  deps: AppDeps,
  realm: RealmRow,
  user: UserRow,
  parts: AsyncIterable<IncomingFile> | null,
): Promise<UploadResult> {
  const { config } = deps;
  if (config.maxFileUploadSizeMib === 0) throw uploadsDisabled();
  await checkQuotaForUploadOfSize(deps, realm, 0);
  const storage = uploadStorage(config);
  let first: StoredUpload | null = null;
  let truncated = false;
  let files = 0;
  try {
    for await (const part of parts ?? []) {
      files += 1;
      if (files > 1) {
        part.file.resume();
        continue;
      }
      first = await storeStream(storage, realm, part.filename, part.mimetype, part.file);
      truncated = part.file.truncated;
    }
  } catch (err) {
    if (first) await storage.delete(first.pathId);
    throw err;
  }
  if (!first) throw new ApiError("You must specify a file to upload");
  if (files > 1 || truncated) {
    await storage.delete(first.pathId);
    throw files > 1 ? new ApiError("You may only upload one file at a time") : fileTooLarge(config.maxFileUploadSizeMib);
  }
  return doRecordUpload(deps, realm, user, first);
}

/**
 * Records a stored file as the user's attachment, with its thumbnails if it is an image, and tells
 * the user's clients (`attachment` add). The quota is checked under a per-realm lock, so concurrent
 * uploads cannot together overshoot it. If the row cannot be written, the file and its thumbnails
 * are removed so nothing is left unowned.
 */
export async function doRecordUpload(
  deps: AppDeps,
  realm: RealmRow,
  user: UserRow,
  stored: StoredUpload,
): Promise<UploadResult> {
  const storage = uploadStorage(deps.config);
  let image: ThumbnailedImage | null = null;
  try {
    await checkQuotaForUploadOfSize(deps, realm, stored.size);
    image = await generateThumbnails(storage, stored, user.id);
    await transaction(deps.store, async (tx) => {
      await lockRealmUploads(tx, realm.id);
      await checkWithinQuota(tx, deps.config, realm.id, stored.size);
      const row = await insertAttachment(tx, {
        realm_id: realm.id,
        owner_id: user.id,
        path_id: stored.pathId,
        file_name: stored.fileName,
        size: stored.size,
        content_type: stored.contentType,
        create_time: deps.clock.now(),
      });
      if (image) {
        await insertImageAttachment(tx, {
          attachment_id: row.id,
          original_width_px: image.info.width,
          original_height_px: image.info.height,
          frames: image.info.frames,
          content_type: image.info.contentType,
          thumbnails: JSON.stringify(image.thumbnails),
        });
      }
      const event = {
        type: "attachment",
        op: "add",
        attachment: presentAttachment(row, []),
        upload_space_used: await getRealmUploadSpaceUsed(tx, realm.id),
      };
      publishOnCommit(tx, deps.events, event, [user.id]);
    });
  } catch (err) {
    await storage.delete(stored.pathId);
    if (image) await deleteThumbnailFiles(storage, stored.pathId, image.thumbnails);
    throw err;
  }
  const url = uploadUrl(stored.pathId);
  return { url, uri: url, filename: stored.fileName };
}

/**
 * Turns a finished resumable (tus) upload into an attachment like `POST /user_uploads` does: the
 * name and type come from the tus metadata (`filename`/`filetype`, or Uppy's `name`/`type`), the
 * size limit was enforced by the tus server as the bytes arrived.
 */
export async function doFinishResumableUpload(
  deps: AppDeps,
  realm: RealmRow,
  user: UserRow,
  body: Readable,
  metadata: Record<string, string | null | undefined>,
): Promise<UploadResult> {
  const name = metadata.filename ?? metadata.name ?? "";
  const type = metadata.filetype ?? metadata.type ?? undefined;
  const stored = await storeStream(uploadStorage(deps.config), realm, name, type, body);
  return doRecordUpload(deps, realm, user, stored);
}

/** The attachment a `/user_uploads/{realm_id}/{rest}` URL names, if the user may read it. */
export async function getReadableAttachment(deps: AppDeps, user: UserRow, realmIdStr: string, rest: string): Promise<AttachmentRow> {
  if (realmIdStr !== String(user.realm_id)) throw fileNotFound();
  return accessAttachmentByPath(readTx(deps.store), user, `${realmIdStr}/${rest}`);
}

/** Zulip's get-file-temporary-url: a credential-free URL for the file, valid for 60 seconds. */
export async function getTemporaryFileUrl(deps: AppDeps, user: UserRow, realmIdStr: string, rest: string): Promise<string> {
  const attachment = await getReadableAttachment(deps, user, realmIdStr, rest);
  const grant = { attachmentId: attachment.id, userId: user.id, expires: deps.clock.now() + TEMPORARY_URL_SECONDS };
  return temporaryUrl(grant, user.api_key, attachment.file_name);
}

/**
 * The attachment a temporary token grants, re-checking that its user is still active and may still
 * read the file. Every failure is the same not-found error.
 */
export async function getAttachmentByTemporaryToken(deps: AppDeps, subdomain: string, token: string): Promise<AttachmentRow> {
  const claimed = parseTemporaryToken(token);
  if (!claimed) throw fileNotFound();
  const tx = readTx(deps.store);
  const realm = await getRealmBySubdomain(tx, subdomain);
  const user = realm && !realm.deactivated ? await getUserById(tx, realm.id, claimed.userId) : undefined;
  if (!user || !user.is_active || !verifyTemporaryGrant(claimed, user.api_key, deps.clock.now())) throw fileNotFound();
  const attachment = await getAttachmentById(tx, user.realm_id, claimed.attachmentId);
  if (!attachment || !(await canReadAttachment(tx, user, attachment))) throw fileNotFound();
  return attachment;
}
