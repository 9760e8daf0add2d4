#!/usr/bin/env node
// `npm start`'s prestart (issue 18, item 7): builds dist/ only when it is missing or older than a
// source it is made from, so a start takes a second instead of a full build every time. With
// `--check` it only says (exit 0: fresh, 1: stale) and builds nothing.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const SOURCES = ["src", "web", "package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json"];
/** Every build rewrites both (tsc and vite emit everything afresh), so the older one dates it. */
const OUTPUTS = ["dist/src/main.js", "dist/web/index.html"];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name === "node_modules") continue;
    newest = Math.max(newest, newestMtime(join(path, name)));
  }
  return newest;
}

/** Why dist must be rebuilt, or null when it is up to date. */
export function staleReason() {
  const missing = OUTPUTS.find((out) => !existsSync(join(root, out)));
  if (missing) return `${missing} is missing`;
  const built = Math.min(...OUTPUTS.map((out) => statSync(join(root, out)).mtimeMs));
  const changed = SOURCES.find((src) => existsSync(join(root, src)) && newestMtime(join(root, src)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const reason = staleReason();
  if (process.argv.includes("--check")) process.exit(reason ? 1 : 0);
  if (reason) {
    process.stderr.write(`building dist/ (${reason})\n`);
    const result = spawnSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
    process.exit(result.status ?? 1);
  }
}
