/**
 * Talks to a listening Parley the way the official Python bindings (python-zulip-api, `zulip.Client`)
 * put requests on the wire, which is also how zulip-terminal and the zulip_bots talk, since both are
 * built on them. Written from reading the bindings, not from their code:
 * - a request is a dict; entries whose value is None are dropped; a string value is sent as it is,
 *   any other value as the text of Python's `json.dumps` (", " and ": " separators, non-ASCII as
 *   \uXXXX escapes);
 * - GET puts the dict in the query string, every other method in an urlencoded body (requests'
 *   `params=` / `data=`, both quote_plus-encoded);
 * - the URL is `site/api/` joined with `v1/` + the path the caller gave, so a path given with a
 *   leading slash arrives as `/api/v1//path`;
 * - HTTP Basic auth with the email and API key, and a `User-agent` naming the client.
 * Host is sent separately from the address dialled, so realms on subdomains are reachable on loopback.
 */
import { request } from "node:http";

/** Python's `json.dumps` with default arguments, for the JSON values these clients send. */
export function pyJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean" || typeof value === "number") return JSON.stringify(value);
  if (typeof value === "string") return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(", ")}]`;
  return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pyJsonDumps(k)}: ${pyJsonDumps(v)}`).join(", ")}}`;
}

/** `urllib.parse.quote_plus`: only letters, digits and `_.-~` stay as they are; space is `+`. */
function quotePlus(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

/** The request dict as the bindings encode it (call_endpoint, then do_api_query). */
export function encodeRequest(req: Record<string, unknown>): string {
  return Object.entries(req)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${quotePlus(k)}=${quotePlus(typeof v === "string" ? v : pyJsonDumps(v))}`)
    .join("&");
}

export type PyMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface PyReply {
  status: number;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface PythonClientOptions {
  /** Loopback port of the listening server. */
  port: number;
  /** The realm's host, sent as Host (the site the client was configured with). */
  host: string;
  email: string;
  apiKey: string;
  /** The `client=` name given to zulip.Client (e.g. "ZulipTerminal/0.7.0 Linux", "ZulipIncrementorBot"). */
  clientName: string;
}

export class PythonClient {
  constructor(private readonly opts: PythonClientOptions) {}

  /** `call_endpoint(url, method, request)`: `url` exactly as the caller passes it (no leading "v1/"). */
  call(method: PyMethod, url: string, req: Record<string, unknown> = {}): Promise<PyReply> {
    const encoded = encodeRequest(req);
    let path = `/api/v1/${url}`;
    if (method === "GET" && encoded !== "") path += (path.includes("?") ? "&" : "?") + encoded;
    const body = method !== "GET" && encoded !== "" ? Buffer.from(encoded) : undefined;
    const headers: Record<string, string> = {
      host: this.opts.host,
      authorization: "Basic " + Buffer.from(`${this.opts.email}:${this.opts.apiKey}`).toString("base64"),
      "user-agent": `${this.opts.clientName} (Linux; 6.1)`,
      accept: "*/*",
      "content-length": String(body?.length ?? 0),
    };
    if (body) headers["content-type"] = "application/x-www-form-urlencoded";
    return new Promise((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port: this.opts.port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
          } catch (e) {
            reject(new Error(`${method} ${path}: not JSON (${res.statusCode}): ${String(e)}`));
          }
        });
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  }
}
