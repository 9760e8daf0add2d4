/**
 * Content types of uploads: what a file is stored as (the client's declared type when it is a
 * well-formed specific type, else a guess from the extension), and which types may be shown inline
 * by a browser. Everything not on the inline list is served as a download (issue 7, item 2).
 */

export const OCTET_STREAM = "application/octet-stream";

const BY_EXTENSION: Record<string, string> = {
  apng: "image/apng",
  avif: "image/avif",
  bmp: "image/bmp",
  gif: "image/gif",
  heic: "image/heic",
  ico: "image/vnd.microsoft.icon",
  jpeg: "image/jpeg",
  jpg: "image/jpeg",
  png: "image/png",
  svg: "image/svg+xml",
  tif: "image/tiff",
  tiff: "image/tiff",
  webp: "image/webp",
  m4v: "video/mp4",
  mov: "video/quicktime",
  qt: "video/quicktime",
  mp4: "video/mp4",
  ogv: "video/ogg",
  webm: "video/webm",
  aac: "audio/aac",
  flac: "audio/flac",
  m4a: "audio/mp4",
  mp3: "audio/mpeg",
  oga: "audio/ogg",
  ogg: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/wav",
  weba: "audio/webm",
  pdf: "application/pdf",
  csv: "text/csv",
  htm: "text/html",
  html: "text/html",
  json: "application/json",
  log: "text/plain",
  md: "text/markdown",
  txt: "text/plain",
  xml: "application/xml",
  "7z": "application/x-7z-compressed",
  gz: "application/gzip",
  tar: "application/x-tar",
  zip: "application/zip",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  odt: "application/vnd.oasis.opendocument.text",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/**
 * Types a browser renders without running anything from the file. SVG (scriptable), HTML, XML and
 * text (sniffable, styleable) are deliberately absent.
 */
const INLINE_TYPES = new Set([
  "application/pdf",
  "audio/aac",
  "audio/flac",
  "audio/mp4",
  "audio/mpeg",
  "audio/ogg",
  "audio/wav",
  "audio/webm",
  "image/apng",
  "image/avif",
  "image/gif",
  "image/jpeg",
  "image/png",
  "image/webp",
  "video/mp4",
  "video/ogg",
  // Served inline since Zulip's feature level 495, so .mov previews play.
  "video/quicktime",
  "video/webm",
]);

/** `type/subtype` made of RFC 9110 token characters; parameters are not kept. */
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;

export function guessContentType(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  if (dot < 0) return OCTET_STREAM;
  return BY_EXTENSION[fileName.slice(dot + 1).toLowerCase()] ?? OCTET_STREAM;
}

/** The type to store: the declared one if well-formed and specific, else a guess from the name. */
export function contentTypeFor(declared: string | undefined, fileName: string): string {
  const type = (declared ?? "").split(";")[0].trim().toLowerCase();
  if (MEDIA_TYPE.test(type) && type !== OCTET_STREAM) return type;
  return guessContentType(fileName);
}

export function isInlineType(contentType: string): boolean {
  return INLINE_TYPES.has(contentType);
}
