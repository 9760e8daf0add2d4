/**
 * The web client's API layer (web/src/api): Zulip's form encoding, Basic credentials, the error
 * envelope as ApiError, and the event loop's reconnect rules: back off on network errors,
 * register again on BAD_EVENT_QUEUE_ID, stop on revoked credentials.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { ApiClient, ApiError, basicAuthorization, encodeParams } from "../../../web/src/api/client";
import { backoffDelay, EventLoop, type ConnectionStatus } from "../../../web/src/api/events";
import type { RegisterResponse, ServerEvent } from "../../../web/src/state/types";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

describe("API client", () => {
  it("encodes strings as is and everything else as JSON, leaving undefined out", () => {
    const form = encodeParams({ topic: "lunch", to: [1, 2], anchor: 5, flag: true, narrow: [{ operator: "is", operand: "starred" }], gone: undefined });
    assert.equal(form.toString(), "topic=lunch&to=%5B1%2C2%5D&anchor=5&flag=true&narrow=%5B%7B%22operator%22%3A%22is%22%2C%22operand%22%3A%22starred%22%7D%5D");
  });

  it("sends UTF-8 Basic credentials", () => {
    assert.equal(basicAuthorization({ email: "zoë@x.test", apiKey: "k" }), `Basic ${Buffer.from("zoë@x.test:k").toString("base64")}`);
  });

  it("puts GET parameters in the query, POST parameters in a form body, and throws Zulip errors", async () => {
    const seen: Array<{ url: string; method?: string; body?: string; auth?: string }> = [];
    globalThis.fetch = async (input, init) => {
      seen.push({ url: String(input), method: init?.method, body: init?.body?.toString(), auth: (init?.headers as Record<string, string>).Authorization });
      const fail = String(input).includes("fail");
      return new Response(JSON.stringify(fail ? { result: "error", msg: "Invalid channel ID", code: "BAD_REQUEST", stream: "x" } : { result: "success", msg: "", value: 1 }), { status: fail ? 400 : 200 });
    };
    const api = new ApiClient({ email: "a@x.test", apiKey: "key" });
    assert.equal((await api.get<{ value: number }>("/messages", { anchor: "newest" })).value, 1);
    await api.post("/messages", { type: "stream", to: 5 });
    assert.deepEqual(seen[0], { url: "/api/v1/messages?anchor=newest", method: "GET", body: undefined, auth: basicAuthorization({ email: "a@x.test", apiKey: "key" }) });
    assert.equal(seen[1].body, "type=stream&to=5");
    await assert.rejects(api.post("/fail"), (e: unknown) => e instanceof ApiError && e.code === "BAD_REQUEST" && e.msg === "Invalid channel ID" && e.status === 400 && e.body.stream === "x");
  });

  it("turns a non-JSON answer (a proxy's error page) into an ApiError", async () => {
    globalThis.fetch = async () => new Response("<html>Bad gateway</html>", { status: 502, statusText: "Bad Gateway" });
    await assert.rejects(new ApiClient({ email: "a", apiKey: "b" }).get("/events"), (e: unknown) => e instanceof ApiError && e.status === 502);
  });
});

/** A scripted server for the event loop: each call takes the next answer for its method and path. */
function scriptedApi(script: Record<string, Array<unknown | Error>>) {
  const calls: string[] = [];
  const answerer = (method: string) => async (path: string, params?: Record<string, unknown>) => {
    const call = `${method} ${path}`;
    calls.push(`${call}${params?.queue_id ? ` ${String(params.queue_id)}@${String(params.last_event_id)}` : ""}`);
    const next = script[call]?.shift();
    if (next === undefined) return new Promise(() => undefined); // parks like a long-poll
    if (next instanceof Error) throw next;
    return next;
  };
  return { calls, api: { post: answerer("POST"), get: answerer("GET"), delete: answerer("DELETE") } as unknown as ApiClient };
}

const registered = (queue: string, lastEventId: number) => ({ queue_id: queue, last_event_id: lastEventId }) as RegisterResponse;

describe("event loop", () => {
  it("doubles its backoff up to 30 s, with jitter", () => {
    assert.equal(backoffDelay(0, () => 0.5), 1_000);
    assert.equal(backoffDelay(3, () => 0.5), 8_000);
    assert.equal(backoffDelay(20, () => 0.5), 30_000);
    assert.equal(backoffDelay(0, () => 0), 750);
    assert.equal(backoffDelay(0, () => 1), 1_250);
  });

  it("polls from the last event id, registers again on BAD_EVENT_QUEUE_ID, stops on bad credentials", async () => {
    const { calls, api } = scriptedApi({
      "POST /register": [registered("q1", 4), registered("q2", 0)],
      "GET /events": [
        { events: [{ id: 5, type: "heartbeat" }] },
        { events: [{ id: 6, type: "message" }] },
        new ApiError("BAD_EVENT_QUEUE_ID", "Bad event queue ID: q1", 400),
        { events: [{ id: 1, type: "reaction" }] },
        new ApiError("UNAUTHORIZED", "Invalid API key", 401),
      ],
    });
    const registers: string[] = [];
    const events: ServerEvent[] = [];
    const statuses: ConnectionStatus[] = [];
    let done: () => void;
    const stopped = new Promise<void>((resolve) => (done = resolve));
    const loop = new EventLoop(api, {
      onRegister: (r) => registers.push(r.queue_id),
      onEvents: (batch) => events.push(...batch),
      onStatus: (status) => (statuses.push(status), status === "unauthorized" && done()),
    });
    await loop.start();
    await stopped;
    assert.deepEqual(registers, ["q1", "q2"]);
    assert.deepEqual(events.map((e) => e.type), ["message", "reaction"]); // heartbeats are not passed on
    assert.deepEqual(calls, ["POST /register", "GET /events q1@4", "GET /events q1@5", "GET /events q1@6", "POST /register", "GET /events q2@0", "GET /events q2@1"]);
    assert.deepEqual(statuses, ["connecting", "connected", "connected", "unauthorized"]);
  });

  it("keeps its queue through a network error, then deletes it when stopped", async () => {
    const { calls, api } = scriptedApi({
      "POST /register": [registered("q1", 0)],
      "GET /events": [new TypeError("fetch failed"), { events: [{ id: 1, type: "message" }] }],
      "DELETE /events": [{}],
    });
    const statuses: ConnectionStatus[] = [];
    const loop = new EventLoop(api, { onRegister: () => undefined, onEvents: () => undefined, onStatus: (s) => statuses.push(s) });
    await loop.start();
    await new Promise((r) => setTimeout(r, 1_400)); // the first retry waits 0.75–1.25 s
    await loop.stop();
    assert.deepEqual(calls, ["POST /register", "GET /events q1@0", "GET /events q1@0", "GET /events q1@1", "DELETE /events q1@undefined"]);
    assert.deepEqual(statuses, ["connecting", "connected", "reconnecting", "connected"]);
  });
});
