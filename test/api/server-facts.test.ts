/**
 * GET /parley/server-facts (src/http/server-facts-routes.ts): Parley's own web client learns
 * whether mail is really sent (SMTP_URL) or only written to files, outside /api/v1 so Zulip's
 * documented answers stay as Zulip clients parse them. Administrators only; no credentials, no facts.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

for (const kind of STORE_KINDS) {
  describe(`server facts for the web client [${kind}]`, () => {
    let file: TestRealm;
    let smtp: TestRealm;
    before(async () => {
      [file, smtp] = await Promise.all([createTestRealm(kind), createTestRealm(kind, { smtpUrl: "smtp://127.0.0.1:2525" })]);
    });
    after(async () => {
      await Promise.all([file?.close(), smtp?.close()]);
    });

    const facts = (t: TestRealm, who: UserName | null) => {
      const user = who === null ? null : t.users[who];
      const authorization = user ? `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString("base64")}` : undefined;
      return t.app.inject({ method: "GET", url: "/parley/server-facts", headers: { host: t.host, ...(authorization ? { authorization } : {}) } });
    };

    it("tells an administrator that mail only goes to files without SMTP_URL, and that it is sent with it", async () => {
      const res = await facts(file, "iago");
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { result: "success", msg: "", email_delivery: "file" });
      assert.equal(res.headers["cache-control"], "no-store");
      assert.equal((await facts(smtp, "desdemona")).json().email_delivery, "smtp");
    });

    it("refuses members and anonymous callers with Zulip's errors", async () => {
      const member = await facts(file, "hamlet");
      assert.equal(member.statusCode, 400);
      assert.equal(member.json().msg, "Must be an organization administrator");
      const anonymous = await facts(file, null);
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.json().result, "error");
    });
  });
}
