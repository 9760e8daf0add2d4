/**
 * S13 (issue 16): a bystander's GET /users/me (S1's load) while one user sends, one after another,
 * the requests that used to stall the process — F1 the edit history of a 10,000-character message
 * rewritten four times, F2 a 50,000-word search, F3 an 8 MB preview, F4 a message and a fetch under
 * a catastrophic-backtracking linkifier, F13 a narrow of 1,000 negated topics. Reports S1's p99
 * under that abuse next to S1's p99 alone, and the slowest answer to each abusive request.
 */
import { authHeaders, PIPELINE_CONNECTIONS, type Context } from "../lib/context.js";
import { HttpClient } from "../lib/http.js";
import { loadTest } from "../lib/measure.js";
import type { Row } from "../lib/report.js";
import { ROLES, type BenchUser } from "../lib/seed.js";

interface Abuse {
  name: string;
  method: "GET" | "POST";
  path: string;
  params: Record<string, unknown>;
  user: BenchUser;
}

const words = (n: number, letters: string) => Array.from({ length: n }, (_, i) => letters[i % letters.length]).join(" ");

/** The linkifier, the edited message and the requests of F1-F4 and F13 against the big store's Parley. */
async function prepare(ctx: Context, client: HttpClient): Promise<Abuse[]> {
  const [owner, sender, me] = [ctx.org.users[ROLES.owner], ctx.org.users[ROLES.sender], ctx.org.users[ROLES.me]];
  const as = (u: BenchUser) => ({ headers: authHeaders(u) });
  const linkifier = await client.call("POST", "/api/v1/realm/filters", { pattern: "(?P<id>(a+)+)!", url_template: "https://example.com/{id}" }, as(owner));
  // A second run on the same store finds it already there.
  if (linkifier.status !== 200 && !String(linkifier.body.msg).includes("already exists")) throw new Error(`linkifier: ${JSON.stringify(linkifier.body)}`);
  const channel = ctx.org.hundred.name;
  const sent = await client.call("POST", "/api/v1/messages", { type: "stream", to: channel, topic: "s13", content: words(5_000, "ab") }, as(sender));
  if (sent.status !== 200) throw new Error(`send: ${JSON.stringify(sent.body)}`);
  const id = sent.body.id as number;
  for (let i = 0; i < 4; i++) {
    const edit = await client.call("PATCH", `/api/v1/messages/${id}`, { content: words(5_000, i % 2 === 0 ? "cd" : "ab") }, as(sender));
    if (edit.status !== 200) throw new Error(`edit: ${JSON.stringify(edit.body)}`);
  }
  const negatedTopics = Array.from({ length: 1_000 }, (_, i) => ({ operator: "topic", operand: `t${i}`, negated: true }));
  return [
    { name: "F1 history", method: "GET", path: `/api/v1/messages/${id}/history`, params: {}, user: me },
    { name: "F2 search", method: "POST", path: "/api/v1/messages/flags/narrow", params: { narrow: [{ operator: "search", operand: words(50_000, "wxyz") }], op: "add", flag: "read", anchor: "newest", num_before: 10, num_after: 0 }, user: me },
    { name: "F3 render", method: "POST", path: "/api/v1/messages/render", params: { content: "*a* ".repeat(2_000_000) }, user: me },
    { name: "F4 send", method: "POST", path: "/api/v1/messages", params: { type: "stream", to: channel, topic: "s13", content: "a".repeat(31) + "b" }, user: sender },
    { name: "F4 fetch", method: "GET", path: "/api/v1/messages", params: { anchor: "newest", num_before: 20, num_after: 0, narrow: [{ operator: "channel", operand: channel }] }, user: me },
    { name: "F13 narrow", method: "GET", path: "/api/v1/messages", params: { anchor: "newest", num_before: 10, num_after: 0, narrow: negatedTopics }, user: me },
  ];
}

export async function s13(ctx: Context): Promise<Row[]> {
  const { seconds, warmupSeconds } = ctx.opts.sizes;
  const parley = ctx.big.parley;
  const client = new HttpClient(parley.port, 2);
  try {
    const abuses = await prepare(ctx, client);
    const s1Spec = { port: parley.port, path: "/api/v1/users/me", headers: authHeaders(ctx.org.users[ROLES.me]), connections: PIPELINE_CONNECTIONS };
    const alone = await loadTest(s1Spec, seconds, warmupSeconds, parley.pid);
    const slowest = new Map<string, { ms: number; statuses: Set<number> }>(abuses.map((a) => [a.name, { ms: 0, statuses: new Set() }]));
    let abusing = true;
    const abuser = (async () => {
      while (abusing) {
        for (const a of abuses) {
          const started = performance.now();
          // A refused oversized body may be cut off before it is all sent (status 0: closed).
          const status = await client.call(a.method, a.path, a.params, { headers: authHeaders(a.user) }).then((r) => r.status, () => 0);
          const seen = slowest.get(a.name)!;
          seen.ms = Math.max(seen.ms, performance.now() - started);
          seen.statuses.add(status);
        }
      }
    })();
    const busy = await loadTest(s1Spec, seconds, warmupSeconds, parley.pid);
    abusing = false;
    await abuser;
    const abuseNote = [...slowest].map(([name, s]) => `${name} ≤ ${Math.round(s.ms)} ms (${[...s.statuses].join("/")})`).join(", ");
    return [
      {
        id: "S13",
        rps: busy.rps,
        p50: busy.p50,
        p99: busy.p99,
        baseline: `S1 alone p99 ${alone.p99} ms`,
        ratio: null,
        target: "bystander p99 < 1,000 ms",
        pass: busy.p99 < 1_000 && busy.failed === 0,
        note: `S1 beside the F1-F4 and F13 requests, sent one after another; slowest answers: ${abuseNote}; ${busy.failed} failed`,
        load: busy.load,
      },
    ];
  } finally {
    client.close();
  }
}
