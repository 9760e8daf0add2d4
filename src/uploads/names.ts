/**
 * Names of uploaded files (spec 4.22): the stored name is the client's name made safe for a
 * filesystem, an object store and a URL, and a file's path id is `{realm_id}/{random}/{name}`,
 * which is also its URL below `/user_uploads/`.
 */
import { randomToken } from "../lib/secrets.js";

/** Most filesystems cap one path segment at 255 bytes. */
export const MAX_FILENAME_BYTES = 255;
/** An "extension" longer than this is just part of a long name, not worth keeping whole. */
const MAX_EXTENSION_BYTES = 32;
const FALLBACK_NAME = "uploaded-file";

/**
 * Control characters (NUL included), format characters (the bidi overrides and isolates such as
 * U+202E, zero-width characters), lone surrogates, private-use characters and line/paragraph
 * separators: none may appear in a stored name.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/gu;
/** Reserved on Windows, so a downloaded file could not be saved under its name. */
const RESERVED = /[<>:"|?*]/g;

const utf8Length = (s: string) => Buffer.byteLength(s, "utf8");

/** The longest prefix of `s` (whole code points) that fits in `maxBytes` of UTF-8. */
function truncateUtf8(s: string, maxBytes: number): string {
  let out = "";
  let used = 0;
  for (const ch of s) {
    const n = utf8Length(ch);
    if (used + n > maxBytes) break;
    out += ch;
    used += n;
  }
  return out;
}

/** Caps the name at MAX_FILENAME_BYTES, shortening the stem so the extension survives. */
function capLength(name: string): string {
  if (utf8Length(name) <= MAX_FILENAME_BYTES) return name;
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 && utf8Length(name.slice(dot)) <= MAX_EXTENSION_BYTES ? name.slice(dot) : "";
  const stem = ext ? name.slice(0, dot) : name;
  return truncateUtf8(stem, MAX_FILENAME_BYTES - utf8Length(ext)) + ext;
}

/**
 * The name a file is stored and served under: NFKC-normalised; invisible and reserved characters
 * dropped; path separators never survive (`../../etc/passwd` keeps only its real segments,
 * `etc_passwd`); whitespace runs become one `-` so the URL stays readable; no leading dots (no
 * `.`/`..`, no hidden files); at most 255 UTF-8 bytes.
 */
export function sanitizeFilename(raw: string): string {
  const cleaned = raw.normalize("NFKC").replace(INVISIBLE, "").replace(RESERVED, "");
  const segments = cleaned
    .split(/[/\\]/)
    .map((s) => s.trim())
    .filter((s) => s !== "" && s !== "." && s !== "..");
  const joined = segments.join("_").replace(/\s+/g, "-").replace(/^[.\s-]+/, "").replace(/[.\s]+$/, "");
  const capped = capLength(joined);
  return capped === "" ? FALLBACK_NAME : capped;
}

/** A path id that could address something other than an upload. */
export class UnsafePathError extends Error {
  constructor(pathId: string) {
    super(`unsafe upload path id: ${JSON.stringify(pathId)}`);
    this.name = "UnsafePathError";
  }
}

/**
 * Path ids are relative, `/`-separated, with no empty, `.` or `..` segment, no backslash and no NUL.
 * Backends check this before touching anything; the local one also checks the resolved path.
 */
export function checkPathId(pathId: string): void {
  const segments = pathId.split("/");
  const bad =
    pathId.length === 0 ||
    pathId.includes("\\") ||
    pathId.includes("\u0000") ||
    segments.some((s) => s === "" || s === "." || s === "..");
  if (bad) throw new UnsafePathError(pathId);
}

/** A fresh, unguessable path id for a file of this realm. */
export function newPathId(realmId: number, storedName: string): string {
  return `${realmId}/${randomToken(18)}/${storedName}`;
}

/** Percent-encodes a segment, including the characters that would end a Markdown link: `()!'*`. */
export function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

/** The relative URL of an upload (`/user_uploads/{path_id}`), pure ASCII. */
export function uploadUrl(pathId: string): string {
  return "/user_uploads/" + pathId.split("/").map(encodeSegment).join("/");
}
