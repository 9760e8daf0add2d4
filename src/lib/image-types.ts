/**
 * What an image file really is, from its first bytes (never from the client's claim), for the
 * image kinds custom emoji may be: PNG, GIF, JPEG and WebP.
 */

export interface ImageType {
  extension: "png" | "gif" | "jpg" | "webp";
  contentType: string;
}

const startsWith = (data: Buffer, bytes: readonly number[]) => bytes.every((b, i) => data[i] === b);
const ascii = (data: Buffer, at: number, text: string) => data.subarray(at, at + text.length).toString("latin1") === text;

export function detectImageType(data: Buffer): ImageType | null {
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { extension: "png", contentType: "image/png" };
  if (ascii(data, 0, "GIF87a") || ascii(data, 0, "GIF89a")) return { extension: "gif", contentType: "image/gif" };
  if (startsWith(data, [0xff, 0xd8, 0xff])) return { extension: "jpg", contentType: "image/jpeg" };
  if (ascii(data, 0, "RIFF") && ascii(data, 8, "WEBP")) return { extension: "webp", contentType: "image/webp" };
  return null;
}

/** The content type an emoji file is served with, from the extension it was stored under. */
export function contentTypeOfExtension(fileName: string): string | null {
  const ext = fileName.slice(fileName.lastIndexOf(".") + 1);
  return { png: "image/png", gif: "image/gif", jpg: "image/jpeg", webp: "image/webp" }[ext] ?? null;
}

/** The file name of an animated emoji's still image: its own name, as a PNG (Zulip's still path). */
export function emojiStillFileName(fileName: string): string {
  return `${fileName.slice(0, fileName.lastIndexOf("."))}.png`;
}
