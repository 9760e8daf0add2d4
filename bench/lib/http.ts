/**
 * A small HTTP client for the purpose-written parts of the benchmark (long-polls, timed sequential
 * requests): node's http module on a keep-alive agent with as many sockets as asked, the arrival time
 * of each response taken with performance.now() when its last byte is in.
 */
import http from "node:http";
import { performance } from "node:perf_hooks";

export interface Reply {
  status: number;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** performance.now() when the whole response had arrived. */
  at: number;
}

export interface TextReply {
  status: number;
  text: string;
  bytes: number;
  /** performance.now() when the whole response had arrived. */
  at: number;
}

export interface Credentials {
  email: string;
  apiKey: string;
}

export const basicAuth = (c: Credentials) => "Basic " + Buffer.from(`${c.email}:${c.apiKey}`).toString("base64");

/** Form-encodes like a Zulip client: strings as-is, everything else as JSON text. */
export function formEncode(params: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
  return form.toString();
}

export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Called once the whole request has been handed to the socket. */
  onSent?: () => void;
}

export class HttpClient {
  readonly agent: http.Agent;

  constructor(
    readonly port: number,
    sockets: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  }

  /** One request; GET parameters go in the query string, others in a form body. */
  async call(method: string, path: string, params: Record<string, unknown>, opts: CallOptions = {}): Promise<Reply> {
    const r = await this.send(method, path, params, opts);
    try {
      return { status: r.status, body: r.text ? JSON.parse(r.text) : {}, at: r.at };
    } catch {
      throw new Error(`${method} ${path}: ${r.status} ${r.text.slice(0, 200)}`);
    }
  }

  /** A GET whose body is not JSON (a page, a script): its text. */
  getText(path: string, headers: Record<string, string> = {}): Promise<TextReply> {
    return this.send("GET", path, {}, { headers });
  }

  private send(method: string, path: string, params: Record<string, unknown>, opts: CallOptions): Promise<TextReply> {
    const { headers = {}, signal, onSent } = opts;
    const form = formEncode(params);
    const isGet = method === "GET";
    const fullPath = isGet && form ? `${path}?${form}` : path;
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: this.port,
          method,
          path: fullPath,
          agent: this.agent,
          signal,
          headers: { ...headers, ...(isGet ? {} : { "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(form) }) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (d: Buffer) => chunks.push(d));
          res.on("end", () => {
            const at = performance.now();
            const body = Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, text: body.toString("utf8"), bytes: body.length, at });
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      if (onSent) req.once("finish", onSent);
      req.end(isGet ? undefined : form);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Quantile of an ascending list (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
