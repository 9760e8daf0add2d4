/**
 * Thumbnail formats, as Zulip's API exposes them (feature level 273; zerver/lib/thumbnail.py):
 * a thumbnail of the upload `/user_uploads/{path_id}` lives at
 * `/user_uploads/thumbnail/{path_id}/{name}`, where a name such as `840x560.webp` or
 * `840x560-anim.webp` says the box it fits in, whether it keeps the animation, and its encoding.
 * POST /register lists the formats as `server_thumbnail_formats`; a client may swap the last path
 * component of a thumbnail URL for any of them. Pure: no I/O.
 */
import { isInlineType } from "./content-types.js";

export interface ThumbnailFormat {
  extension: "webp";
  maxWidth: number;
  maxHeight: number;
  animated: boolean;
}

/** A thumbnail as generated and stored (kept as JSON in image_attachments.thumbnails). */
export interface StoredThumbnail {
  name: string;
  animated: boolean;
  content_type: string;
  width: number;
  height: number;
  byte_size: number;
}

/**
 * Zulip's THUMBNAIL_OUTPUT_FORMATS. Relatively large, so clients that do not know the protocol
 * still get a picture that does not look pixelated; the first still and the first animated one
 * are what rendered messages link.
 */
export const THUMBNAIL_OUTPUT_FORMATS: readonly ThumbnailFormat[] = [
  { extension: "webp", maxWidth: 840, maxHeight: 560, animated: true },
  { extension: "webp", maxWidth: 840, maxHeight: 560, animated: false },
];

/**
 * Zulip's TRANSCODED_IMAGE_FORMAT: a full-size still for image types browsers cannot show inline
 * (TIFF), turned to portrait for portrait images.
 */
const TRANSCODED_FORMAT: ThumbnailFormat = { extension: "webp", maxWidth: 4032, maxHeight: 3024, animated: false };

export const THUMBNAIL_CONTENT_TYPE = "image/webp";

export function formatName(format: ThumbnailFormat): string {
  return `${format.maxWidth}x${format.maxHeight}${format.animated ? "-anim" : ""}.${format.extension}`;
}

/** The format a name stands for; null when it is not a format name at all. */
export function parseFormatName(name: string): ThumbnailFormat | null {
  const m = /^(\d{1,5})x(\d{1,5})(-anim)?\.webp$/.exec(name);
  return m ? { extension: "webp", maxWidth: Number(m[1]), maxHeight: Number(m[2]), animated: m[3] !== undefined } : null;
}

/** `server_thumbnail_formats` of POST /register. */
export function serverThumbnailFormats(): Array<{ name: string; max_width: number; max_height: number; format: string; animated: boolean }> {
  return THUMBNAIL_OUTPUT_FORMATS.map((f) => ({
    name: formatName(f),
    max_width: f.maxWidth,
    max_height: f.maxHeight,
    format: f.extension,
    animated: f.animated,
  }));
}

/** Where a thumbnail is stored, which is also its URL below `/user_uploads/`. */
export function thumbnailPathId(pathId: string, name: string): string {
  return `thumbnail/${pathId}/${name}`;
}

/**
 * The formats to generate for an image (Zulip's missing_thumbnails): every output format, minus
 * the animated ones for a still image, plus the transcoded full-size still for types a browser
 * cannot show.
 */
export function formatsToGenerate(image: { contentType: string; width: number; height: number; frames: number }): ThumbnailFormat[] {
  const formats = THUMBNAIL_OUTPUT_FORMATS.filter((f) => image.frames > 1 || !f.animated);
  if (!isInlineType(image.contentType)) {
    const portrait = image.width < image.height;
    const { maxWidth, maxHeight } = TRANSCODED_FORMAT;
    formats.push({ ...TRANSCODED_FORMAT, maxWidth: portrait ? maxHeight : maxWidth, maxHeight: portrait ? maxWidth : maxHeight });
  }
  return formats;
}

/** The format rendered messages link (Zulip's get_default_thumbnail_url). */
export function defaultFormat(animated: boolean): ThumbnailFormat {
  return THUMBNAIL_OUTPUT_FORMATS.find((f) => f.animated === animated) ?? THUMBNAIL_OUTPUT_FORMATS[0];
}

/**
 * The stored thumbnail to serve for a requested name: that one if it was generated, otherwise the
 * default of the same animation (a still image's default when it has no animated one). Zulip
 * likewise serves something close enough for a format it did not render.
 */
export function thumbnailToServe(stored: readonly StoredThumbnail[], requested: ThumbnailFormat): StoredThumbnail | undefined {
  const name = formatName(requested);
  return (
    stored.find((t) => t.name === name) ??
    stored.find((t) => t.name === formatName(defaultFormat(requested.animated))) ??
    stored.find((t) => t.name === formatName(defaultFormat(false)))
  );
}

/**
 * The full-size transcoded still of an image whose type browsers cannot show (the largest stored
 * thumbnail, the later one on a tie, as Zulip's get_transcoded_format picks it), or null for a
 * type shown as it is.
 */
export function transcodedThumbnail(contentType: string, stored: readonly StoredThumbnail[]): StoredThumbnail | null {
  if (isInlineType(contentType) || stored.length === 0) return null;
  return stored.reduce((a, b) => (b.width * b.height >= a.width * a.height ? b : a));
}
