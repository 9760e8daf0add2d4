/**
 * First start (issue 2): on an empty store the server creates the root-domain organization and hands
 * the owner's credentials over once, in a file only the server's user can read.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { buildApp } from "../src/app.js";
import { ensureInitialRealm } from "../src/bootstrap.js";
import type { AppDeps } from "../src/deps.js";
import { realmUrl } from "../src/lib/realm-url.js";
import { readTx } from "../src/store/db.js";
import { countRealms, getRealmBySubdomain } from "../src/store/realms.js";
import { EXTERNAL_HOST, testDeps } from "./helpers/fixtures.js";
import { basicAuth, send } from "./helpers/http.js";
import { openTestStore, STORE_KINDS, type TestStore } from "./helpers/stores.js";

const CREDENTIALS = "initial-credentials.json";

for (const kind of STORE_KINDS) {
  describe(`first start [${kind}]`, () => {
    let ts: TestStore;
    let varDir: string;
    let deps: AppDeps;
    before(async () => {
      ts = await openTestStore(kind);
      varDir = mkdtempSync(join(tmpdir(), "parley-var-"));
      deps = testDeps(ts.store, { varDir: join(varDir, "nested") });
    });
    after(async () => {
      await ts.cleanup();
      rmSync(varDir, { recursive: true, force: true });
    });

    it("creates the root realm and its owner, and saves the credentials readable only by the owner", async () => {
      const url = realmUrl(EXTERNAL_HOST, "");
      const created = await ensureInitialRealm(deps, url);
      assert.ok(created);
      assert.equal(created.realm_url, url);
      assert.match(created.api_key, /^[A-Za-z0-9]{32}$/);
      const realm = await getRealmBySubdomain(readTx(ts.store), "");
      assert.equal(realm?.name, "Parley");

      const path = join(deps.config.varDir, CREDENTIALS);
      assert.equal(statSync(path).mode & 0o777, 0o600);
      assert.deepEqual(JSON.parse(readFileSync(path, "utf8")), created);

      const app = await buildApp(deps, { logger: false });
      try {
        const headers = { host: EXTERNAL_HOST };
        const me = await send(app, "GET", "/users/me", { headers: { ...headers, authorization: basicAuth({ email: created.email, apiKey: created.api_key }) } });
        assert.equal(me.status, 200, JSON.stringify(me.body));
        assert.deepEqual([me.body.user_id, me.body.role, me.body.is_owner], [created.user_id, 100, true]);
        const login = await send(app, "POST", "/fetch_api_key", { headers, form: { username: created.email, password: created.password } });
        assert.equal(login.body.api_key, created.api_key, "the printed password logs in too");
      } finally {
        await app.close();
      }
    });

    it("does nothing when the store already holds a realm", async () => {
      const path = join(deps.config.varDir, CREDENTIALS);
      rmSync(path);
      assert.equal(await ensureInitialRealm(deps, realmUrl(EXTERNAL_HOST, "")), null);
      assert.equal(existsSync(path), false);
      assert.equal(await countRealms(readTx(ts.store)), 1);
    });

    it("tightens a leftover credentials file's mode when it rewrites it", async () => {
      const fresh = await openTestStore(kind);
      try {
        const path = join(deps.config.varDir, CREDENTIALS);
        writeFileSync(path, "stale", { mode: 0o644 });
        const created = await ensureInitialRealm({ ...deps, store: fresh.store }, realmUrl(EXTERNAL_HOST, ""));
        assert.equal(JSON.parse(readFileSync(path, "utf8")).api_key, created?.api_key);
        assert.equal(statSync(path).mode & 0o777, 0o600);
      } finally {
        await fresh.cleanup();
      }
    });
  });
}
