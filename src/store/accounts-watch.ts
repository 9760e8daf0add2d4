/**
 * SQLite: a count of this connection's changes to `users` and `realms` rows, so that authentication
 * can skip its version check after writes that touch neither (auth-rows.ts).
 *
 * Why: the change stamp (change-stamp.ts) moves with every row written anywhere, so on a server
 * where messages are being sent every request re-ran the authentication statement, although a
 * send changes no account. HTTP long-polling makes this the hot path: after each message every
 * client online re-polls, and each re-poll is authenticated (issue 21, S12).
 *
 * How: TEMP triggers (they belong to this connection only; other connections, the `manage`
 * commands and an operator's sqlite3 shell never see them) call a function registered on this
 * connection after every insert, update and delete of a `users` or `realms` row, rolled back or
 * not. Together with `PRAGMA data_version`, which moves when any other connection commits, an
 * unchanged count proves that no account row has changed since.
 *
 * Its blind spot is the schema: a temp trigger goes with its table when that table is dropped or
 * rebuilt (a migration), and the count would then stand still. So the watch remembers the main
 * schema's version at install time and checks it before vouching (`intact`); a different version
 * reinstalls the triggers and moves the count, so nothing checked before the change is trusted.
 */
import type Database from "better-sqlite3";

const TABLES = ["users", "realms"] as const;
const FUNCTION = "parley_account_row_changed";

export class AccountsWatch {
  /** Changes seen and installs made: it only ever grows, so an old count never comes back. */
  private count = 0;
  /** Whether the triggers are in place (not before the tables exist). */
  private installed = false;
  /** The main schema's version when the triggers were last installed (or found missing). */
  private schemaAtInstall = -1;
  private readonly schemaVersion: Database.Statement;

  constructor(private readonly raw: Database.Database) {
    this.schemaVersion = raw.prepare("PRAGMA main.schema_version").pluck();
    raw.function(FUNCTION, { deterministic: false }, () => {
      this.count++;
      return null;
    });
    this.install();
  }

  /** The count now, or undefined when it cannot vouch (not installed). */
  current(): number | undefined {
    if (!this.installed) this.refreshIfSchemaChanged();
    return this.installed ? this.count : undefined;
  }

  /** Whether counts taken since the install are still meaningful; reinstalls if the schema changed. */
  intact(): boolean {
    return !this.refreshIfSchemaChanged() && this.installed;
  }

  /** Reinstalls after a schema change; true when it did (counts taken before are then void). */
  private refreshIfSchemaChanged(): boolean {
    if (this.schemaVersion.get() === this.schemaAtInstall) return false;
    this.install();
    return true;
  }

  private install(): void {
    this.schemaAtInstall = this.schemaVersion.get() as number;
    const present = this.raw
      .prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN (${TABLES.map((t) => `'${t}'`).join(", ")})`)
      .pluck()
      .get() as number;
    const statements: string[] = [];
    for (const table of TABLES) {
      for (const op of ["INSERT", "UPDATE", "DELETE"]) {
        const name = `parley_watch_${table}_${op.toLowerCase()}`;
        statements.push(`DROP TRIGGER IF EXISTS temp.${name}`);
        if (present === TABLES.length) statements.push(`CREATE TEMP TRIGGER ${name} AFTER ${op} ON main.${table} BEGIN SELECT ${FUNCTION}(); END`);
      }
    }
    this.raw.exec(statements.join(";\n"));
    this.installed = present === TABLES.length;
    // A new start: counts taken before the (re)install never match one taken after it.
    this.count++;
  }
}
