/**
 * `npm run --silent manage -- <command> [--flag value …]`: administration from the shell. Each
 * command prints exactly one JSON line on success; bad arguments print an error to stderr and
 * exit non-zero. `manage --help` lists the commands, `manage COMMAND --help` explains one.
 * Commands live in modules (cli/commands/*.ts) as records of specs (cli/command-spec.ts) merged here.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../config.js";
import { systemClock } from "../deps.js";
import { ApiError } from "../errors.js";
import { openStore } from "../store/db.js";
import { migrateToLatest } from "../store/migrate.js";
import { StoreInUse } from "../store/server-lock.js";
import { runBackup, runRestore } from "./backup.js";
import { FLAG, STRING, UsageError, commandUsage, required, type Command } from "./command-spec.js";
import { runChangeUserPermission, runCreateRealm, runCreateUser } from "./commands.js";
import { REALM_ADMIN_COMMANDS } from "./commands/realm-admin.js";
import { DIGEST_COMMANDS } from "./commands/digest-commands.js";
import { REALM_EXPORT_COMMANDS } from "./realm-export-commands.js";
import { STORE_COMMANDS } from "./commands/store-convert.js";
import { USER_ADMIN_COMMANDS } from "./commands/user-admin.js";

const COMMANDS: Record<string, Command> = {
  migrate: { summary: "Applies pending database migrations (the server does too when it starts).", options: {}, run: async () => ({ migrated: true }) },
  "create-realm": {
    summary: "Creates an organization (with #general, #sandbox and #Parley as default channels) and its owner; prints the owner's API key.",
    options: { subdomain: STRING, name: STRING, "owner-email": STRING, "owner-name": STRING, "owner-password": STRING },
    run: (store, v, config) => runCreateRealm(store, systemClock, required(v, ["subdomain", "name", "owner-email", "owner-name", "owner-password"]), config),
  },
  "create-user": {
    summary: "Creates an account (or a bot with --bot-type and --bot-owner); prints its API key.",
    options: { realm: STRING, email: STRING, "full-name": STRING, password: STRING, role: STRING, "bot-type": STRING, "bot-owner": STRING },
    flags: { role: "100 owner, 200 administrator, 300 moderator, 400 member (default), 600 guest" },
    run: (store, v) => runCreateUser(store, systemClock, { ...v, ...required(v, ["realm", "email", "full-name", "password"]) }),
  },
  "change-user-permission": {
    summary: "Grants (or with --revoke takes back) can_create_users or can_change_user_emails.",
    options: { realm: STRING, email: STRING, permission: STRING, revoke: FLAG },
    run: (store, v) => runChangeUserPermission(store, { ...v, ...required(v, ["realm", "email", "permission"]) }),
  },
  ...USER_ADMIN_COMMANDS,
  ...REALM_ADMIN_COMMANDS,
  ...DIGEST_COMMANDS,
  backup: {
    summary: "Writes the database and the uploads into one tar archive FILE (mode 0600), while the server runs.",
    options: {},
    positionals: ["file"],
    migrate: false,
    run: (store, v, config) => runBackup(store, config, systemClock, v.file as string),
  },
  restore: {
    summary: "Replaces the database and the uploads with a backup's, then migrates it; refuses while a server runs.",
    options: {},
    positionals: ["file"],
    migrate: false,
    run: (store, v, config) => runRestore(store, config, v.file as string),
  },
  ...STORE_COMMANDS,
  ...REALM_EXPORT_COMMANDS,
};

const HELP = new Set(["--help", "-h", "help"]);

function globalUsage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([name, spec]) => `  ${name.padEnd(width)}  ${spec.summary ?? ""}`.trimEnd());
  return ["usage: manage COMMAND [--flag VALUE …]   (manage COMMAND --help for its flags)", "", "commands:", ...lines].join("\n");
}

function parse(command: string, spec: Command, rest: string[]): Record<string, string | undefined> {
  const parsed = parseArgs({ args: rest, options: spec.options, strict: true, allowPositionals: spec.positionals !== undefined });
  const names = spec.positionals ?? [];
  if (parsed.positionals.length !== names.length) throw new UsageError(`${command} takes ${names.map((n) => n.toUpperCase()).join(" ")}`);
  const flags = Object.entries(parsed.values).map(([k, val]) => [k, val === true ? "true" : val]);
  return { ...(Object.fromEntries(flags) as Record<string, string | undefined>), ...Object.fromEntries(names.map((n, i) => [n, parsed.positionals[i]])) };
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || HELP.has(command)) {
    const text = rest[0] && COMMANDS[rest[0]] ? commandUsage(rest[0], COMMANDS[rest[0]]) : globalUsage();
    // Asked for: stdout and success; run bare: the usage is the error.
    if (command === undefined) console.error(text);
    else console.log(text);
    return command === undefined ? 2 : 0;
  }
  const spec = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!spec) {
    console.error(`unknown command: ${command} (manage --help lists them)`);
    return 2;
  }
  if (rest.some((arg) => HELP.has(arg))) {
    console.log(commandUsage(command, spec));
    return 0;
  }
  let values: Record<string, string | undefined>;
  try {
    values = parse(command, spec, rest);
  } catch (e) {
    console.error(`${(e as Error).message}\n${commandUsage(command, spec)}`);
    return 2;
  }
  const config = loadConfig();
  // A manage command often runs beside a live server (or another manage command) on the same SQLite
  // file: it takes the write lock when a transaction begins, as the server does (db.ts), instead of
  // failing with "database is locked" when another process commits between its read and its write.
  const store = openStore(config.databaseUrl, { writeLockFirst: true });
  try {
    if (spec.migrate !== false) await migrateToLatest(store);
    const result = await spec.run(store, values, config);
    console.log(JSON.stringify(result));
    return 0;
  } catch (e) {
    if (e instanceof UsageError) console.error(`${e.message}\n${commandUsage(command, spec)}`);
    else if (e instanceof ApiError || e instanceof StoreInUse) console.error(`error: ${e.message}`);
    else console.error(`error: ${(e as Error)?.message ?? String(e)}`);
    return e instanceof UsageError ? 2 : 1;
  } finally {
    await store.close();
  }
}

// Backups, stores and credentials the commands create are the operator's alone (issue 16, F12).
process.umask(0o077);
main(process.argv.slice(2)).then((code) => process.exit(code));
