/**
 * What this server claims to be. The feature level is the one whose behaviour the spec describes
 * (spec section 9 names levels up to 496); clients adapt to it. Parley's own version is
 * package.json's (CHANGELOG.md says what each one changed); it is logged at start and reported
 * by /health and /metrics.
 */
import { readFileSync } from "node:fs";

export const ZULIP_FEATURE_LEVEL = 496;

/** package.json's version, found from this file in the sources (src/) and in the build (dist/src/). */
function packageVersion(): string {
  for (const up of ["../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "parley" && pkg.version) return pkg.version;
    } catch {
      // not at this depth
    }
  }
  return "unknown";
}

export const PARLEY_VERSION = packageVersion();
export const ZULIP_VERSION = `12.0-parley-${PARLEY_VERSION}`;
export const ZULIP_MERGE_BASE = ZULIP_VERSION;
