/**
 * The shape of a manage command (manage.ts keeps them in one registry): its flags, positional
 * arguments, and a `run` that returns what is printed as one JSON line. Modules of commands
 * (cli/commands/*.ts, cli/realm-export-commands.ts) export records of these.
 */
import type { Config } from "../config.js";
import type { Store } from "../store/db.js";

export const STRING = { type: "string" } as const;
/** A flag without a value; it reads as "true" when given. */
export const FLAG = { type: "boolean" } as const;

export interface Command {
  options: Record<string, typeof STRING | typeof FLAG>;
  /** Names of the positional arguments, all required; none when absent. */
  positionals?: string[];
  run: (store: Store, v: Record<string, string | undefined>, config: Config) => Promise<unknown>;
  /** One line for `manage --help`. */
  summary?: string;
  /** What each flag means, for `manage COMMAND --help` (flags without an entry are listed bare). */
  flags?: Record<string, string>;
  /** Whether manage migrates the store before running it (default true; backup and restore must not). */
  migrate?: boolean;
}

/** Bad arguments: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

export function required(values: Record<string, string | undefined>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = values[name];
    if (value === undefined) throw new UsageError(`missing --${name}`);
    out[name] = value;
  }
  return out;
}

/** `manage NAME --flag VALUE … [--switch] POSITIONAL…`, then one line per described flag. */
export function commandUsage(name: string, spec: Command): string {
  const flags = Object.entries(spec.options).map(([flag, o]) => (o.type === "boolean" ? `[--${flag}]` : `--${flag} ${flag.toUpperCase().replace(/-/g, "_")}`));
  const positionals = (spec.positionals ?? []).map((p) => p.toUpperCase());
  const lines = [`usage: manage ${[name, ...flags, ...positionals].join(" ")}`];
  if (spec.summary) lines.push("", spec.summary);
  const described = Object.entries(spec.flags ?? {});
  if (described.length) lines.push("", ...described.map(([flag, text]) => `  --${flag.padEnd(16)} ${text}`));
  return lines.join("\n");
}
