/**
 * Serves the web client (issue 10) built by `vite build` into dist/web: files at the site root,
 * index.html for any other page path (the client routes itself), and never for the server's own
 * paths (/api/, /user_uploads/, /accounts/, /join/, /json/), which keep their JSON 404s. Hashed
 * assets are cached for a year; index.html is revalidated on every load, so a new build is picked
 * up at once. Without a build, `/` answers a short page saying so instead of failing.
 */
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Paths served by the server itself: an unknown one is a 404, never the client's page. */
const SERVER_PREFIXES = ["/api/", "/user_uploads/", "/accounts/", "/join/", "/json/", "/static/"];

/** Vite's content-hashed output: safe to cache for good (a new build has new names). */
const HASHED_ASSETS = "/assets/";

/**
 * The client's page may run its own scripts and styles, fetch from this origin, and show images
 * from uploads, data/blob URLs (pasted images, previews) and https (external image previews,
 * avatars). The server's rendered Markdown carries style attributes (KaTeX), hence inline styles.
 */
export const WEB_CLIENT_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parley</title></head>
<body><main><h1>Parley</h1>
<p>The web client is not built. Run <code>npm run build</code> and restart the server.</p>
<p>The API is available at <code>/api/v1</code>.</p></main></body></html>`;

/** dist/web under the package root, found from this module in src/http or dist/src/http. */
export function defaultWebClientDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(dir, "dist", "web");
}

function isServerPath(path: string): boolean {
  return SERVER_PREFIXES.some((prefix) => path.startsWith(prefix) || path === prefix.slice(0, -1));
}

/** A last path segment with a dot names a file; anything else may be a page of the client. */
function looksLikeFile(path: string): boolean {
  const last = path.slice(path.lastIndexOf("/") + 1);
  return last.includes(".");
}

/** Browsers navigating ask for HTML; API clients and scripts get the JSON 404 for unknown paths. */
function wantsPage(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes("text/html");
}

function sendIndex(reply: FastifyReply): FastifyReply {
  return reply
    .header("Content-Security-Policy", WEB_CLIENT_CSP)
    .header("Cache-Control", "no-cache")
    .sendFile("index.html", { cacheControl: false });
}

export async function registerWebClient(app: FastifyInstance, dir: string = defaultWebClientDir()): Promise<void> {
  const built = existsSync(join(dir, "index.html"));
  if (!built) {
    app.get("/", async (_request, reply) =>
      reply.header("Content-Type", "text/html; charset=utf-8").header("Cache-Control", "no-store").header("Content-Security-Policy", "default-src 'none'").send(NOT_BUILT_PAGE),
    );
    return;
  }
  // serve: false only adds reply.sendFile; the route below decides what each path gets.
  await app.register(fastifyStatic, { root: dir, serve: false });
  app.get<{ Params: { "*": string } }>("/*", async (request, reply) => {
    const path = request.url.split("?")[0];
    const file = request.params["*"]; // decoded by the router
    if (isServerPath(path)) return reply.callNotFound();
    if (path === "/" || file === "index.html") return sendIndex(reply);
    if (!looksLikeFile(path)) return wantsPage(request.headers.accept) ? sendIndex(reply) : reply.callNotFound();
    if (path.startsWith(HASHED_ASSETS)) return reply.sendFile(file, { maxAge: "365d", immutable: true });
    return reply.sendFile(file, { maxAge: 0 });
  });
}
