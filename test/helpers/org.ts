/**
 * Helpers for organization-administration tests: extra accounts made straight through the
 * creation action, and the per-endpoint permission check over the six kinds of caller (owner,
 * administrator, moderator, member, guest, bot).
 */
import assert from "node:assert/strict";
import { checkCreateUser } from "../../src/actions/users/users.js";
import { fakeEmailDomain } from "../../src/policy/email-visibility.js";
import { readTx, transaction } from "../../src/store/db.js";
import { getRealmById } from "../../src/store/realms.js";
import type { ApiResponse, TestRealm, TestUser, UserName } from "./fixtures.js";
import { PASSWORD } from "./fixtures.js";

/** One caller of each kind, in the order permission tests report them. */
export const CALLERS: readonly UserName[] = ["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"];

let counter = 0;

/** A new account (a bot when `botOwner` is given), created directly in the store. */
export async function addUser(
  t: TestRealm,
  opts: { role?: number; botOwner?: TestUser; name?: string; botType?: number } = {},
): Promise<TestUser> {
  const n = ++counter;
  const isBot = opts.botOwner !== undefined;
  const email = isBot ? `extra${n}-bot@zulip.test` : `extra${n}@zulip.test`;
  const fullName = opts.name ?? `Extra ${isBot ? "Bot" : "User"} ${n}`;
  const realm = (await getRealmById(readTx(t.deps.store), t.realmId))!;
  const created = await transaction(t.deps.store, (tx) =>
    checkCreateUser(
      tx,
      realm,
      {
        email,
        fullName,
        password: isBot ? null : PASSWORD,
        role: opts.role ?? 400,
        botType: isBot ? (opts.botType ?? 1) : null,
        botOwnerId: opts.botOwner?.id ?? null,
        emailDomain: fakeEmailDomain(t.deps.config, realm.string_id),
      },
      t.clock.now(),
    ),
  );
  return { id: created.userId, email, apiKey: created.apiKey, fullName, role: opts.role ?? 400 };
}

/**
 * Calls `attempt` once as each kind of caller and checks that exactly `allowed` succeed; the
 * others must get an error response (400 or 403 with result "error").
 */
export async function checkPermissions(
  allowed: readonly UserName[],
  attempt: (caller: UserName) => Promise<ApiResponse>,
): Promise<void> {
  for (const caller of CALLERS) {
    const res = await attempt(caller);
    if (allowed.includes(caller)) {
      assert.equal(res.status, 200, `${caller} should be allowed: ${JSON.stringify(res.body)}`);
    } else {
      assert.ok([400, 403].includes(res.status), `${caller} should be refused: ${res.status} ${JSON.stringify(res.body)}`);
      assert.equal(res.body.result, "error");
    }
  }
}

/** Asserts a Zulip error response with this message (and code, default BAD_REQUEST). */
export function assertError(res: ApiResponse, msg: string, code = "BAD_REQUEST", status = 400): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.result, "error");
  assert.equal(res.body.msg, msg);
  assert.equal(res.body.code, code);
}
