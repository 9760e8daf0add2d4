/**
 * Builds the web client (issue 10) from web/ into dist/web, where src/http/web-client.ts serves it.
 * Hashed file names under assets/ let the server cache them for a year; index.html is never cached.
 * `vite --config web/vite.config.ts` serves it for development, proxying the server's own paths to
 * a Parley on PARLEY_DEV_SERVER (default http://127.0.0.1:9991).
 */
import { fileURLToPath } from "node:url";
import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const devServer = process.env.PARLEY_DEV_SERVER ?? "http://127.0.0.1:9991";
const SERVER_PATHS = ["/api", "/user_uploads", "/accounts", "/join", "/json"];

export default defineConfig({
  root: here("."),
  base: "/",
  plugins: [preact({ devToolsEnabled: false, prefreshEnabled: false })],
  build: {
    outDir: here("../dist/web"),
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2022",
    sourcemap: false,
  },
  server: { proxy: Object.fromEntries(SERVER_PATHS.map((path) => [path, { target: devServer, changeOrigin: false }])) },
});
