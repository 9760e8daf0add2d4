/**
 * Sends a body the server generated and keeps (the emoji data file, default avatars and realm
 * icons), to anyone: with a strong ETag, a 304 when the client already holds it, and a cache
 * lifetime — for good when the URL names the content (a hash or a fixed seed in its path).
 */
import type { FastifyReply, FastifyRequest } from "fastify";

/** Whether an If-None-Match list names this ETag (weak comparison, RFC 9110 section 13.1.2). */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

export interface CachedBody {
  body: Buffer;
  contentType: string;
  /** Quoted, e.g. `"3f2a…"`. */
  etag: string;
  /** The URL names this exact content, so it may be cached for a year without asking again. */
  immutable: boolean;
}

export function sendCachedBody(request: FastifyRequest, reply: FastifyReply, cached: CachedBody): FastifyReply {
  reply.headers({
    ETag: cached.etag,
    "Cache-Control": cached.immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600, must-revalidate",
    "X-Content-Type-Options": "nosniff",
  });
  if (noneMatch(request.headers["if-none-match"], cached.etag)) return reply.code(304).send();
  return reply.headers({ "Content-Type": cached.contentType, "Content-Length": cached.body.length }).send(cached.body);
}
