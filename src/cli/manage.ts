/**
 * `npm run --silent manage -- <command> [--flag value …]`: administration from the shell. Each
 * command prints exactly one JSON line on success; bad arguments print an error to stderr and
 * exit non-zero.
 */
import { parseArgs } from "node:util";
import { loadConfig, type Config } from "../config.js";
import { systemClock } from "../deps.js";
import { ApiError } from "../errors.js";
import { openStore, type Store } from "../store/db.js";
import { migrateToLatest } from "../store/migrate.js";
import { runBackup, runRestore } from "./backup.js";
import { runChangeUserPermission, runCreateRealm, runCreateUser } from "./commands.js";
import { REALM_EXPORT_COMMANDS } from "./realm-export-commands.js";

const USAGE = `usage:
  manage migrate
  manage create-realm --subdomain S --name N --owner-email E --owner-name N --owner-password P
  manage create-user --realm S --email E --full-name N --password P [--role 100|200|300|400|600] [--bot-type 1 --bot-owner EMAIL]
  manage change-user-permission --realm S --email E --permission can_create_users|can_change_user_emails [--revoke]
  manage backup FILE     (database and uploads into one tar archive)
  manage restore FILE    (stop the server first: replaces the database and uploads)`;

class UsageError extends Error {}

const STRING = { type: "string" } as const;
/** A flag without a value; it reads as "true" when given. */
const FLAG = { type: "boolean" } as const;

interface Command {
  options: Record<string, typeof STRING | typeof FLAG>;
  /** Names of the positional arguments, all required; none when absent. */
  positionals?: string[];
  run: (store: Store, v: Record<string, string | undefined>, config: Config) => Promise<unknown>;
}

const COMMANDS: Record<string, Command> = {
  migrate: { options: {}, run: async () => ({ migrated: true }) },
  "create-realm": {
    options: { subdomain: STRING, name: STRING, "owner-email": STRING, "owner-name": STRING, "owner-password": STRING },
    run: (store, v) => runCreateRealm(store, systemClock, required(v, ["subdomain", "name", "owner-email", "owner-name", "owner-password"])),
  },
  "create-user": {
    options: { realm: STRING, email: STRING, "full-name": STRING, password: STRING, role: STRING, "bot-type": STRING, "bot-owner": STRING },
    run: (store, v) => runCreateUser(store, systemClock, { ...v, ...required(v, ["realm", "email", "full-name", "password"]) }),
  },
  "change-user-permission": {
    options: { realm: STRING, email: STRING, permission: STRING, revoke: FLAG },
    run: (store, v) => runChangeUserPermission(store, { ...v, ...required(v, ["realm", "email", "permission"]) }),
  },
  backup: { options: {}, positionals: ["file"], run: (store, v, config) => runBackup(store, config, systemClock, v.file as string) },
  restore: { options: {}, positionals: ["file"], run: (store, v, config) => runRestore(store, config, v.file as string) },
  ...REALM_EXPORT_COMMANDS,
};

function required(values: Record<string, string | undefined>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = values[name];
    if (value === undefined) throw new UsageError(`missing --${name}`);
    out[name] = value;
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const spec = command === undefined ? undefined : COMMANDS[command];
  if (!spec) {
    console.error(command ? `unknown command: ${command}\n${USAGE}` : USAGE);
    return 2;
  }
  let values: Record<string, string | undefined>;
  try {
    const parsed = parseArgs({ args: rest, options: spec.options, strict: true, allowPositionals: spec.positionals !== undefined });
    const names = spec.positionals ?? [];
    if (parsed.positionals.length !== names.length) throw new Error(`${command} takes ${names.map((n) => n.toUpperCase()).join(" ")}`);
    const flags = Object.entries(parsed.values).map(([k, val]) => [k, val === true ? "true" : val]);
    values = { ...(Object.fromEntries(flags) as Record<string, string | undefined>), ...Object.fromEntries(names.map((n, i) => [n, parsed.positionals[i]])) };
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  const store = openStore(config.databaseUrl);
  try {
    await migrateToLatest(store);
    const result = await spec.run(store, values, config);
    console.log(JSON.stringify(result));
    return 0;
  } catch (e) {
    if (e instanceof UsageError) console.error(`${e.message}\n${USAGE}`);
    else if (e instanceof ApiError) console.error(`error: ${e.message}`);
    else console.error(e);
    return e instanceof UsageError ? 2 : 1;
  } finally {
    await store.close();
  }
}

// Backups, stores and credentials the commands create are the operator's alone (issue 16, F12).
process.umask(0o077);
main(process.argv.slice(2)).then((code) => process.exit(code));
