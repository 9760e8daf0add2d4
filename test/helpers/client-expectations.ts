/**
 * Client expectations written as data: "path:type" strings naming what a client reads from an
 * answer without a fallback, and a checker that walks them. A path is dot-separated keys; a key
 * followed by `[]` means "every item of this list", by `{}` "every value of this object" (they can
 * repeat: `presences{}{}.status` is the status of every client entry of every user). The type is
 * one of int, number, string, boolean, list, object, any, or several joined by `|` (`int|null`).
 * A path ending in `?` may be absent, but has the type when present.
 */
import assert from "node:assert/strict";
import type { TestRealm } from "./fixtures.js";

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TYPE_CHECKS: Record<string, (v: unknown) => boolean> = {
  int: (v) => Number.isInteger(v),
  number: (v) => typeof v === "number",
  string: (v) => typeof v === "string",
  boolean: (v) => typeof v === "boolean",
  list: (v) => Array.isArray(v),
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
  null: (v) => v === null,
  any: (v) => v !== undefined,
};

/** The values a path reaches, each with a readable location; `optional` tolerates absent last keys. */
function reach(root: unknown, path: string, optional: boolean): Array<[string, unknown]> {
  let found: Array<[string, unknown]> = [["", root]];
  for (const token of path.split(".")) {
    const m = /^([^[{]*)((?:\[\]|\{\})*)$/.exec(token);
    assert.ok(m, `bad path token ${token}`);
    const [, key, iterators] = m;
    const next: Array<[string, unknown]> = [];
    for (const [where, value] of found) {
      let items: Array<[string, unknown]> = [[where, value]];
      if (key !== "") {
        assert.ok(TYPE_CHECKS.object(value), `${where || "answer"} is not an object`);
        const obj = value as Json;
        if (!(key in obj)) {
          assert.ok(optional, `missing ${where ? `${where}.` : ""}${key}`);
          continue;
        }
        items = [[where ? `${where}.${key}` : key, obj[key]]];
      }
      for (const iterator of iterators.match(/\[\]|\{\}/g) ?? []) {
        items = items.flatMap(([w, v]) => {
          if (iterator === "[]") {
            assert.ok(Array.isArray(v), `${w} is not a list`);
            return v.map((item, i) => [`${w}[${i}]`, item] as [string, unknown]);
          }
          assert.ok(TYPE_CHECKS.object(v), `${w} is not an object`);
          return Object.entries(v as Json).map(([k, item]) => [`${w}.${k}`, item] as [string, unknown]);
        });
      }
      next.push(...items);
    }
    found = next;
  }
  return found;
}

/** Checks every "path:type" requirement against an answer; fails naming the first unmet one. */
export function assertRequirements(answer: unknown, requirements: readonly string[], context = ""): void {
  for (const requirement of requirements) {
    const [rawPath, types = "any"] = requirement.split(":");
    const optional = rawPath.endsWith("?");
    const path = optional ? rawPath.slice(0, -1) : rawPath;
    for (const [where, value] of reach(answer, path, optional)) {
      const ok = types.split("|").some((t) => {
        assert.ok(TYPE_CHECKS[t], `unknown type ${t} in ${requirement}`);
        return TYPE_CHECKS[t](value);
      });
      assert.ok(ok, `${context}${where} should be ${types}, is ${JSON.stringify(value)?.slice(0, 200)}`);
    }
  }
}

/** What a profile's steps learn as they go: ids, the client's event queue, the events it polled. */
export interface ProfileContext {
  t: TestRealm;
  ids: Record<string, number>;
  queueId: string;
  lastEventId: number;
  events: Json[];
}

export const newProfileContext = (t: TestRealm, ids: Record<string, number> = {}): ProfileContext => ({ t, ids: { ...ids }, queueId: "", lastEventId: -1, events: [] });

/** A long-poll as the clients send it: queue_id and last_event_id, nothing else. */
export const pollRequest = (c: ProfileContext) => ({ queue_id: c.queueId, last_event_id: c.lastEventId });

/** Remembers the queue a register answer names. */
export function keepQueue(body: Json, c: ProfileContext): void {
  c.queueId = body.queue_id;
  c.lastEventId = body.last_event_id;
}

/** What the clients' loops do with a poll's answer: move last_event_id to the highest id, keep the events. */
export function keepEvents(body: Json, c: ProfileContext): void {
  c.lastEventId = Math.max(c.lastEventId, ...body.events.map((e: Json) => Number(e.id)));
  c.events.push(...body.events);
}

/**
 * One request a client makes, as data: what it sends (before its library encodes it) and what it
 * needs of the answer. `C` is the context type the step's functions read and fill.
 */
export interface ProfileStep<C = ProfileContext> {
  /** What the client does, in our words. */
  does: string;
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** As the client hands it to its library (a leading slash included when it gives one). */
  url: string | ((c: C) => string);
  /** The request dict before the library encodes it. */
  request?: Json | ((c: C) => Json);
  /** Something another user does first, so that there is something to see. */
  first?: (c: C) => Promise<unknown>;
  /** The error answer the client expects and handles (by default: 200 and result "success"). */
  fails?: { status: number; code: string };
  /** Keys the client reads from the answer without a fallback. */
  requires?: readonly string[];
  /** Remembers what later steps need; runs before `expect`. */
  keep?: (body: Json, c: C) => void;
  /** Values the client relies on. */
  expect?: (body: Json, c: C) => void;
  /** The missing piece this step waits for; skipped until it lands. */
  pending?: string;
}

/** Sends one step's request through `call` and checks the answer against the step's expectations. */
export async function runProfileStep<C>(
  step: ProfileStep<C>,
  c: C,
  call: (method: ProfileStep<C>["method"], url: string, request: Json) => Promise<{ status: number; body: Json }>,
): Promise<void> {
  await step.first?.(c);
  const url = typeof step.url === "function" ? step.url(c) : step.url;
  const request = typeof step.request === "function" ? step.request(c) : (step.request ?? {});
  const { status, body } = await call(step.method, url, request);
  const where = `${step.method} ${url}: ${JSON.stringify(body).slice(0, 500)}`;
  if (step.fails) assert.deepEqual([status, body.result, body.code], [step.fails.status, "error", step.fails.code], where);
  else assert.deepEqual([status, body.result], [200, "success"], where);
  assertRequirements(body, step.requires ?? []);
  step.keep?.(body, c);
  step.expect?.(body, c);
}
