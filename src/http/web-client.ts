/**
 * Serves the web client (issue 10) built by `vite build` into dist/web: index.html at `/`, the
 * hashed bundles under /assets/, and the other files of the build's top level. The client routes
 * in the URL's fragment (`/#/narrow/…`, `/#/settings/…`), so no other path needs the page, and
 * there is no catch-all route: unknown paths and the server's own (/api/, /user_uploads/, …) keep
 * their JSON 404s and routing errors. Hashed assets are cached for a year; index.html is
 * revalidated on every load, so a new build is picked up at once. Without a build, `/` answers a
 * short page saying so instead of failing.
 */
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Vite's content-hashed output: safe to cache for good (a new build has new names). */
const HASHED_ASSETS = "assets";

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
  // serve: false only adds reply.sendFile; the routes below say what is served.
  await app.register(fastifyStatic, { root: dir, serve: false });
  app.get("/", async (_request, reply) => sendIndex(reply));
  app.get("/index.html", async (_request, reply) => sendIndex(reply));
  app.get<{ Params: { "*": string } }>(`/${HASHED_ASSETS}/*`, async (request, reply) =>
    reply.sendFile(`${HASHED_ASSETS}/${request.params["*"]}`, { maxAge: "365d", immutable: true }),
  );
  // Unhashed files at the top of the build (icons, robots.txt), as they were at start-up.
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name !== "index.html") app.get(`/${entry.name}`, async (_request, reply) => reply.sendFile(entry.name, { maxAge: 0 }));
  }
}
