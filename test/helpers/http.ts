/**
 * Helpers for tests of the HTTP layer itself: an app serving a handful of test endpoints (instead of
 * the real API) over the same plumbing `buildApp` sets up, and a request helper that can send the
 * body encodings Zulip clients use (form, multipart, JSON, anything else).
 */
import type { FastifyInstance } from "fastify";
import { buildApp, type BuildOptions } from "../../src/app.js";
import type { AppDeps } from "../../src/deps.js";
import type { AnyEndpoint } from "../../src/http/endpoint.js";
import { formEncode, testDeps, type ApiResponse, type TestUser } from "./fixtures.js";
import { openTestStore, type StoreKind } from "./stores.js";

export interface EchoApp {
  app: FastifyInstance;
  deps: AppDeps;
  close(): Promise<void>;
}

/** An app over a fresh, empty store serving only `endpoints`. */
export async function buildEndpointApp(
  endpoints: readonly AnyEndpoint[],
  opts: Omit<BuildOptions, "endpoints"> = {},
  kind: StoreKind = "sqlite",
): Promise<EchoApp> {
  const testStore = await openTestStore(kind);
  const deps: AppDeps = testDeps(testStore.store);
  const app = await buildApp(deps, { logger: false, ...opts, endpoints });
  return {
    app,
    deps,
    async close() {
      await app.close();
      await testStore.cleanup();
    },
  };
}

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface SendOptions {
  /** Appended to the URL as a query string (already encoded, or encoded like a form). */
  query?: string | Record<string, unknown>;
  /** An urlencoded body (already encoded, or encoded like a Zulip client would). */
  form?: string | Record<string, unknown>;
  /** A JSON body. */
  json?: unknown;
  /** A multipart/form-data body, serialised the way fetch() would send it. */
  multipart?: FormData;
  /** Any other body, sent with the given content type. */
  raw?: { contentType: string; body: string | Buffer };
  user?: TestUser;
  headers?: Record<string, string>;
}

/** Serialises a FormData the way zulip-js (fetch) posts it: body bytes plus the boundary header. */
export async function serialiseMultipart(form: FormData): Promise<{ payload: Buffer; contentType: string }> {
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get("content-type") as string };
}

export function basicAuth(user: Pick<TestUser, "email" | "apiKey">): string {
  return "Basic " + Buffer.from(`${user.email}:${user.apiKey}`).toString("base64");
}

export async function send(app: FastifyInstance, method: Method, path: string, opts: SendOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.user) headers.authorization = basicAuth(opts.user);
  let url = path.startsWith("/api/") ? path : `/api/v1${path}`;
  if (opts.query !== undefined) url += "?" + (typeof opts.query === "string" ? opts.query : formEncode(opts.query));
  let payload: string | Buffer | undefined;
  if (opts.form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    payload = typeof opts.form === "string" ? opts.form : formEncode(opts.form);
  } else if (opts.json !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(opts.json);
  } else if (opts.multipart !== undefined) {
    const body = await serialiseMultipart(opts.multipart);
    headers["content-type"] = body.contentType;
    payload = body.payload;
  } else if (opts.raw !== undefined) {
    headers["content-type"] = opts.raw.contentType;
    payload = opts.raw.body;
  }
  const res = await app.inject({ method, url, headers, payload });
  // light-my-request types header values as OutgoingHttpHeader (numbers too); inject yields strings.
  return { status: res.statusCode, body: res.json(), headers: res.headers as ApiResponse["headers"] };
}
