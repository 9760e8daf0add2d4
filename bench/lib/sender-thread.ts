/**
 * A client of its own for the one request whose latency a fan-out scenario reports (S12's sender).
 *
 * The pollers and the sender used to share the benchmark's event loop. When the server answered
 * the sender and then, one turn later, every parked poll, all of those answers were in the
 * client's sockets at once, and the benchmark took them in whatever order its poll phase listed
 * them: the sender's answer could wait behind N poll answers parsed, matched and re-polled by the
 * client, so "the sender's own p50" measured the client's backlog as much as the server. A real
 * sender is a different client from its N readers. Here it runs on a worker thread with its own
 * event loop and sockets, timing from just before the request to the answer's last byte.
 */
import { Worker } from "node:worker_threads";
import { formEncode } from "./http.js";

/** The worker's program (plain JavaScript: an `eval` worker takes source text). */
const SOURCE = `
const http = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
parentPort.on("message", (m) => {
  if (m === "close") {
    agent.destroy();
    parentPort.close();
    return;
  }
  const start = performance.now();
  const req = http.request(
    { host: "127.0.0.1", port: workerData.port, method: "POST", path: m.path, agent,
      headers: { ...m.headers, "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(m.form) } },
    (res) => {
      const chunks = [];
      res.on("data", (d) => chunks.push(d));
      res.on("end", () => parentPort.postMessage({ status: res.statusCode, ms: performance.now() - start, text: Buffer.concat(chunks).toString("utf8") }));
    },
  );
  req.on("error", (err) => parentPort.postMessage({ status: 0, ms: 0, text: String(err) }));
  req.end(m.form);
});
`;

export interface SentReply {
  status: number;
  /** From just before the request to the last byte of its answer, on the worker's clock. */
  ms: number;
  text: string;
}

export class SenderThread {
  private readonly worker: Worker;
  /** One request at a time: the answers come back in order. */
  private pending: Array<(reply: SentReply) => void> = [];

  constructor(port: number) {
    this.worker = new Worker(SOURCE, { eval: true, workerData: { port } });
    this.worker.on("message", (reply: SentReply) => this.pending.shift()?.(reply));
  }

  /** POSTs a form from the worker and reports its latency there. */
  post(path: string, params: Record<string, unknown>, headers: Record<string, string>): Promise<SentReply> {
    return new Promise((resolve) => {
      this.pending.push(resolve);
      this.worker.postMessage({ path, form: formEncode(params), headers });
    });
  }

  async close(): Promise<void> {
    this.worker.postMessage("close");
    await new Promise((resolve) => this.worker.once("exit", resolve));
  }
}
