/**
 * Sends an uploaded file (issue 7, item 2): inline only for the safe types of content-types.ts,
 * otherwise as a download; always `nosniff` and a CSP that lets the file run nothing; one byte
 * range at a time (206, or 416 when it lies outside the file); a strong ETag with
 * If-None-Match (304) and If-Range. A file never changes under its path id, so the ETag depends on
 * the path id and size alone.
 */
import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { fileNotFound } from "../access/attachments.js";
import { noneMatch } from "../http/cached-body.js";
import type { AttachmentRow } from "../store/attachments.js";
import { isInlineType, OCTET_STREAM } from "./content-types.js";
import { encodeSegment } from "./names.js";
import type { ByteRange, UploadStorage } from "./storage.js";

/** What serving a file needs: an upload's row, or the same facts about one of its thumbnails. */
export type ServedFile = Pick<AttachmentRow, "path_id" | "size" | "content_type" | "file_name">;

export function etagFor(attachment: Pick<AttachmentRow, "path_id" | "size">): string {
  return `"${createHash("sha256").update(`${attachment.path_id}\u0000${attachment.size}`).digest("base64url").slice(0, 32)}"`;
}

/**
 * RFC 6266 Content-Disposition: an ASCII fallback name for old clients and the exact name in
 * RFC 8187 `filename*`. The fallback has no quote, backslash or control character to escape.
 */
export function contentDisposition(kind: "inline" | "attachment", fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeSegment(fileName)}`;
}

/**
 * The one range of a `Range: bytes=…` header within a file of `size` bytes: null to send the whole
 * file (no header, another unit, several ranges, or a malformed one, all of which RFC 9110 lets a
 * server ignore), or "unsatisfiable" when the range starts past the end.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | "unsatisfiable" | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== "" && Number(m[2]) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end: m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: UploadStorage,
  attachment: ServedFile,
): Promise<FastifyReply> {
  const size = Number(attachment.size);
  const etag = etagFor(attachment);
  const contentType = attachment.content_type ?? OCTET_STREAM;
  const common = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'",
    // Private: access depends on who asks. Immutable: the bytes under a path id never change.
    "Cache-Control": "private, max-age=86400, immutable",
    ETag: etag,
    "Accept-Ranges": "bytes",
  };
  if (noneMatch(request.headers["if-none-match"], etag)) return reply.code(304).headers(common).send();
  const ifRange = request.headers["if-range"];
  const range = ifRange === undefined || ifRange === etag ? parseRange(request.headers.range, size) : null;
  if (range === "unsatisfiable") {
    return reply.code(416).headers({ ...common, "Content-Range": `bytes */${size}` }).send();
  }
  const stream = await storage.get(attachment.path_id, range ?? undefined);
  if (!stream) throw fileNotFound();
  reply.headers({
    ...common,
    "Content-Type": contentType,
    "Content-Disposition": contentDisposition(isInlineType(contentType) ? "inline" : "attachment", attachment.file_name),
  });
  if (range) {
    reply.code(206).headers({ "Content-Range": `bytes ${range.start}-${range.end}/${size}`, "Content-Length": range.end - range.start + 1 });
  } else {
    reply.code(200).header("Content-Length", size);
  }
  return reply.send(stream);
}
