/**
 * The machine's own limits, measured in the same run as Parley:
 * - B0: a bare Fastify server answering a constant JSON body (the request-pipeline ceiling);
 * - Bpoll: a bare node:http server that parks every GET /poll and answers all of them with one
 *   small JSON body when POST /fire arrives (the floor for event fan-out).
 * Both run as child processes, like Parley, from plain JavaScript given on the command line.
 */
import { performance } from "node:perf_hooks";
import { freePort } from "../../test/helpers/server-process.js";
import type { HttpClient } from "./http.js";
import { countdown, type Round } from "./pollers.js";
import { startNode, waitForIdle, waitUntilUp, type Child } from "./processes.js";

const B0_SOURCE = `
import Fastify from "fastify";
const app = Fastify({ logger: false });
app.get("/hello", async () => ({ result: "success", msg: "", hello: "world" }));
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
`;

const BPOLL_SOURCE = `
import http from "node:http";
const parked = [];
const body = JSON.stringify({ result: "success", msg: "", queue_id: "q", events: [{ type: "message", id: 0 }] });
const server = http.createServer((req, res) => {
  if (req.url.startsWith("/poll")) {
    parked.push(res);
    return;
  }
  if (req.url === "/fire") {
    for (const r of parked.splice(0)) r.writeHead(200, { "content-type": "application/json" }).end(body);
  }
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ parked: parked.length }));
});
server.listen(Number(process.env.PORT), "127.0.0.1");
`;

async function startSource(name: string, source: string, readyPath: string): Promise<Child> {
  const child = startNode(name, await freePort(), ["--input-type=module", "-e", source], {});
  await waitUntilUp(child, readyPath);
  return child;
}

export const startB0 = () => startSource("B0", B0_SOURCE, "/hello");
export const startBpoll = () => startSource("Bpoll", BPOLL_SOURCE, "/count");

const REFIRES = 30;
const REFIRE_MS = 1000;

function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([p.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

/** How long the parked count may take to reach every poll. */
const PARK_WAIT_MS = 30_000;
const PARK_POLL_MS = 50;

/** One Bpoll round: `n` parked polls, one fire, each answer timed from just before the fire. */
export async function bpollRound(http: HttpClient, server: Child, n: number, quietMs: number): Promise<Round> {
  const sent = countdown(n, PARK_WAIT_MS);
  const polls = Array.from({ length: n }, () => http.call("GET", "/poll", {}, { onSent: sent.tick }));
  await sent.done;
  const deadline = Date.now() + PARK_WAIT_MS;
  const parkedNow = async () => (await http.call("GET", "/count", {})).body.parked as number;
  let parked = await parkedNow();
  while (parked < n && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, PARK_POLL_MS));
    parked = await parkedNow();
  }
  await waitForIdle([server.pid], quietMs, PARK_WAIT_MS);
  const start = performance.now();
  await http.call("POST", "/fire", {});
  const all = Promise.all(polls);
  // Polls that were not parked yet at the fire would wait forever: fire again for them (bounded).
  for (let i = 0; i < REFIRES && !(await settledWithin(all, REFIRE_MS)); i++) await http.call("POST", "/fire", {});
  const replies = await all;
  const latencies = replies.map((r) => r.at - start).sort((a, b) => a - b);
  return { latencies, missing: n - parked };
}
