/**
 * A typed fetch wrapper over Parley's public Zulip API (/api/v1), the only server interface the web
 * client uses (issue 10). Requests authenticate with HTTP Basic `email:api_key`, parameters are
 * form-encoded the way Zulip clients send them (strings as is, everything else JSON-encoded), and
 * Zulip's error envelope `{"result":"error","msg","code",…}` becomes a thrown ApiError.
 */

export interface Credentials {
  email: string;
  apiKey: string;
}

export type Params = Record<string, unknown>;
export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** A failed API call: Zulip's `code` and `msg`, the HTTP status, and the whole error body. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly msg: string,
    readonly status: number,
    readonly body: Record<string, unknown> = {},
  ) {
    super(msg);
    this.name = "ApiError";
  }
}

/** Zulip's form encoding: strings verbatim, numbers/booleans/arrays/objects as JSON; undefined left out. */
export function encodeParams(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.set(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  return form;
}

export function basicAuthorization(credentials: Credentials): string {
  // btoa only takes Latin-1, so the UTF-8 bytes of the pair are encoded first.
  const bytes = new TextEncoder().encode(`${credentials.email}:${credentials.apiKey}`);
  return "Basic " + btoa(String.fromCharCode(...bytes));
}

/** Reads a response as Zulip's envelope; a non-JSON answer (proxy error page) becomes an ApiError too. */
async function readEnvelope<T>(response: Response): Promise<T> {
  let body: Record<string, unknown>;
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    throw new ApiError("BAD_RESPONSE", `The server answered ${response.status} ${response.statusText}`, response.status);
  }
  if (!response.ok || body.result === "error") {
    throw new ApiError(String(body.code ?? "BAD_REQUEST"), String(body.msg ?? "Request failed"), response.status, body);
  }
  return body as T;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** A multipart body (file uploads) instead of form-encoded parameters. */
  formData?: FormData;
}

/** Calls the API without credentials (fetch_api_key, server_settings). */
export async function publicRequest<T>(method: Method, path: string, params: Params = {}, signal?: AbortSignal): Promise<T> {
  const form = encodeParams(params);
  const query = method === "GET" && [...form].length > 0 ? `?${form}` : "";
  const response = await fetch(`/api/v1${path}${query}`, {
    method,
    headers: method === "GET" ? {} : { "Content-Type": "application/x-www-form-urlencoded" },
    body: method === "GET" ? undefined : form,
    signal,
  });
  return readEnvelope<T>(response);
}

/** One signed-in user's view of the API. */
export class ApiClient {
  readonly authorization: string;

  constructor(readonly credentials: Credentials) {
    this.authorization = basicAuthorization(credentials);
  }

  get email(): string {
    return this.credentials.email;
  }

  async request<T = Record<string, unknown>>(method: Method, path: string, params: Params = {}, options: RequestOptions = {}): Promise<T> {
    const form = encodeParams(params);
    // GET and DELETE carry their parameters in the query string (Zulip reads both for every method).
    const inQuery = method === "GET" || method === "DELETE";
    const query = inQuery && [...form].length > 0 ? `?${form}` : "";
    const headers: Record<string, string> = { Authorization: this.authorization };
    let body: BodyInit | undefined;
    if (options.formData) body = options.formData;
    else if (!inQuery) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = form;
    }
    const response = await fetch(`/api/v1${path}${query}`, { method, headers, body, signal: options.signal });
    return readEnvelope<T>(response);
  }

  get<T = Record<string, unknown>>(path: string, params?: Params, options?: RequestOptions): Promise<T> {
    return this.request<T>("GET", path, params, options);
  }

  post<T = Record<string, unknown>>(path: string, params?: Params, options?: RequestOptions): Promise<T> {
    return this.request<T>("POST", path, params, options);
  }

  patch<T = Record<string, unknown>>(path: string, params?: Params, options?: RequestOptions): Promise<T> {
    return this.request<T>("PATCH", path, params, options);
  }

  delete<T = Record<string, unknown>>(path: string, params?: Params, options?: RequestOptions): Promise<T> {
    return this.request<T>("DELETE", path, params, options);
  }
}
