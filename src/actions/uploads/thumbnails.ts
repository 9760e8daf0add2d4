/**
 * Thumbnails of uploaded images (issue 7; Zulip's ImageAttachment, feature level 273). They are
 * generated when the upload arrives, before its attachment row is written, so any message that
 * links an image already renders its final preview (Zulip renders a placeholder and rewrites the
 * message once its worker is done; doing the work up front needs neither). A file that is not a
 * thumbnailable image, is corrupt, or is an image bomb simply gets no image row, hence no preview,
 * as in Zulip. Thumbnails are served with the access rules of the original, and removed with it.
 */
import { Readable } from "node:stream";
import { accessAttachmentByPath, fileNotFound } from "../../access/attachments.js";
import type { AppDeps } from "../../deps.js";
import type { UploadPreview } from "../../markdown/index.js";
import type { AttachmentRow } from "../../store/attachments.js";
import { readTx, type Tx } from "../../store/db.js";
import { getImageAttachment, getImagesByPathIds, listImageAttachments, type ImageAttachmentRow } from "../../store/image-attachments.js";
import type { UserRow } from "../../store/types.js";
import type { ServedFile } from "../../uploads/serve.js";
import type { UploadStorage } from "../../uploads/storage.js";
import {
  defaultFormat,
  formatName,
  formatsToGenerate,
  parseFormatName,
  THUMBNAIL_CONTENT_TYPE,
  thumbnailPathId,
  thumbnailToServe,
  transcodedThumbnail,
  type StoredThumbnail,
} from "../../uploads/thumbnail-formats.js";
import { BadImageError, MAX_THUMBNAIL_SOURCE_BYTES, probeImage, renderThumbnail, withThumbnailSlot, type ImageInfo } from "../../uploads/thumbnailer.js";

/** Zulip's THUMBNAIL_ACCEPT_IMAGE_TYPES, less SVG and HEIC (see uploads/thumbnailer.ts). */
const THUMBNAILED_TYPES = new Set(["image/avif", "image/gif", "image/jpeg", "image/png", "image/tiff", "image/webp"]);
/** A message links at most this many uploads worth looking up (previews stop at 24 links anyway). */
const MAX_PREVIEW_LOOKUPS = 100;
const UPLOAD_LINK = /\/user_uploads\/(\d+\/[^\s()<>[\]"'`]+)/g;

/** An image with its thumbnails in storage, waiting for its row. */
export interface ThumbnailedImage {
  info: ImageInfo;
  thumbnails: StoredThumbnail[];
}

/** The whole file, or null if it is gone or larger than `maxBytes`. */
async function readWhole(storage: UploadStorage, pathId: string, maxBytes: number): Promise<Buffer | null> {
  const stream = await storage.get(pathId);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      stream.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function deleteThumbnailFiles(storage: UploadStorage, pathId: string, thumbnails: readonly StoredThumbnail[]): Promise<void> {
  for (const t of thumbnails) await storage.delete(thumbnailPathId(pathId, t.name));
}

/**
 * Generates and stores the thumbnails of a just-stored upload when it is an image we thumbnail.
 * Returns null (and leaves nothing behind) for anything else.
 */
export async function generateThumbnails(
  storage: UploadStorage,
  upload: { pathId: string; size: number; contentType: string },
  uploaderId: number,
): Promise<ThumbnailedImage | null> {
  // As Zulip does, a file that does not claim to be such an image is never parsed.
  if (!THUMBNAILED_TYPES.has(upload.contentType) || upload.size > MAX_THUMBNAIL_SOURCE_BYTES) return null;
  // A user with too many images already waiting gets none for this one (the gate refuses it).
  return withThumbnailSlot(String(uploaderId), async () => {
    const data = await readWhole(storage, upload.pathId, MAX_THUMBNAIL_SOURCE_BYTES);
    if (!data) return null;
    const written: StoredThumbnail[] = [];
    try {
      const probed = await probeImage(data);
      // The declared type decides what browsers are sent, hence whether a transcoded copy is needed.
      const info = { ...probed, contentType: upload.contentType };
      for (const format of formatsToGenerate(info)) {
        const rendered = await renderThumbnail(data, probed, format);
        const name = formatName(format);
        await storage.put(thumbnailPathId(upload.pathId, name), Readable.from([rendered.data]), THUMBNAIL_CONTENT_TYPE);
        written.push({ name, animated: format.animated, content_type: THUMBNAIL_CONTENT_TYPE, width: rendered.width, height: rendered.height, byte_size: rendered.data.length });
      }
      return { info, thumbnails: written };
    } catch (err) {
      await deleteThumbnailFiles(storage, upload.pathId, written);
      if (err instanceof BadImageError) return null;
      throw err;
    }
  }).catch((err: unknown) => {
    if (err instanceof BadImageError) return null;
    throw err;
  });
}

const storedThumbnails = (image: Pick<ImageAttachmentRow, "thumbnails">) => JSON.parse(image.thumbnails) as StoredThumbnail[];

/** Path ids of every file behind these attachments: each original and its thumbnails. */
export async function storedFilesOf(tx: Tx, attachments: readonly AttachmentRow[]): Promise<string[]> {
  const images = await listImageAttachments(tx, attachments.map((a) => a.id));
  const files = attachments.map((a) => a.path_id);
  for (const image of images) {
    const pathId = attachments.find((a) => a.id === image.attachment_id)?.path_id;
    if (pathId !== undefined) files.push(...storedThumbnails(image).map((t) => thumbnailPathId(pathId, t.name)));
  }
  return files;
}

/**
 * What the renderer needs to preview the uploaded images a message links (Zulip's
 * get_user_upload_previews), keyed by path id; uploads with no image row are absent, so their links
 * get no preview.
 */
export async function getUploadPreviews(tx: Tx, realmId: number, content: string): Promise<Map<string, UploadPreview>> {
  const pathIds = new Set<string>();
  for (const m of content.matchAll(UPLOAD_LINK)) {
    if (pathIds.size >= MAX_PREVIEW_LOOKUPS) break;
    const raw = m[1].replace(/[?#].*$/, "");
    try {
      pathIds.add(decodeURIComponent(raw));
    } catch {
      pathIds.add(raw);
    }
  }
  const previews = new Map<string, UploadPreview>();
  for (const image of await getImagesByPathIds(tx, realmId, [...pathIds])) {
    const animated = image.frames > 1;
    previews.set(image.path_id, {
      thumbnail: formatName(defaultFormat(animated)),
      animated,
      width: image.original_width_px,
      height: image.original_height_px,
      contentType: image.content_type,
      transcoded: transcodedThumbnail(image.content_type, storedThumbnails(image))?.name ?? null,
    });
  }
  return previews;
}

/**
 * The thumbnail `/user_uploads/thumbnail/{realm_id}/{path…}/{format}` names, for a user who may
 * read the original; every failure is the original's not-found error.
 */
export async function getReadableThumbnail(deps: AppDeps, user: UserRow, realmIdStr: string, rest: string): Promise<ServedFile> {
  const slash = rest.lastIndexOf("/");
  const requested = slash < 0 ? null : parseFormatName(rest.slice(slash + 1));
  if (requested === null || realmIdStr !== String(user.realm_id)) throw fileNotFound();
  const tx = readTx(deps.store);
  const attachment = await accessAttachmentByPath(tx, user, `${realmIdStr}/${rest.slice(0, slash)}`);
  const image = await getImageAttachment(tx, attachment.id);
  const thumbnail = image ? thumbnailToServe(storedThumbnails(image), requested) : undefined;
  if (!thumbnail) throw fileNotFound();
  return {
    path_id: thumbnailPathId(attachment.path_id, thumbnail.name),
    size: thumbnail.byte_size,
    content_type: thumbnail.content_type,
    file_name: thumbnail.name,
  };
}

/**
 * Zulip's check-thumbnail-status (FL 479), which clients poll after an upload: whether its
 * thumbnails exist yet. The file is looked up as `/user_uploads/{realm_id}/{path…}` would be, with
 * the same not-found error for missing and unreadable files; anything that is not an image has none.
 */
export async function getThumbnailStatus(deps: AppDeps, user: UserRow, realmIdStr: string, rest: string): Promise<boolean> {
  if (realmIdStr !== String(user.realm_id)) throw fileNotFound();
  const tx = readTx(deps.store);
  const attachment = await accessAttachmentByPath(tx, user, `${realmIdStr}/${rest}`);
  const image = await getImageAttachment(tx, attachment.id);
  return image !== undefined && storedThumbnails(image).length > 0;
}
