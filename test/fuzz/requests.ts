/**
 * Requests for one endpoint, derived from its declaration (src/http/params.ts): which parameters it
 * takes, which are required, their kinds and aliases, which come from the path. A generated request
 * may drop required parameters, add unknown or duplicated ones, put values in the query string, a
 * form, a JSON or a multipart body, and call as any user the endpoint's gate admits.
 */
import fc from "fast-check";
import type { AnyEndpoint } from "../../src/http/endpoint.js";
import type { ParamTable } from "../../src/http/params.js";
import type { UserName } from "../helpers/fixtures.js";
import type { Json } from "../helpers/contract/document.js";
import type { Part } from "../helpers/uploads.js";
import { TINY_PNG } from "./fuzz-realm.js";
import { giantValue, idFor, paramValue, text, validLooking, type Pools, type WireValue } from "./values.js";

/** `json-typed`: a JSON body whose values that parse as JSON are embedded as JSON, not as strings. */
export type Encoding = "query" | "form" | "json" | "json-typed" | "multipart" | "split";

export interface FuzzRequest {
  caller: UserName | null;
  /** Path parameters, by name (`*` for a wildcard tail). */
  path: Record<string, WireValue>;
  /** Body or query parameters in order; a repeated name is sent twice. */
  params: Array<[string, WireValue]>;
  encoding: Encoding;
  /** A file part, for endpoints that stream files (uploads, custom emoji). */
  file?: Part;
}

/** Callers each gate admits; "user" endpoints are called by every role, bots included. */
const CALLERS: Record<string, ReadonlyArray<UserName | null>> = {
  none: [null, "hamlet"],
  realm: [null],
  user: ["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"],
  admin: ["desdemona", "iago"],
  owner: ["desdemona"],
  spectator: [null, "hamlet"],
};

const EXTRA_NAMES = ["foo", "", "__proto__", "constructor", "content", "to", "anchor", "queue_id", "a".repeat(200), "naïve", "x[]", "x%00y"];

const fileArb: fc.Arbitrary<Part> = fc.record({
  filename: fc.constantFrom("a.png", "", "../../x.txt", "\u202Egnp.exe", "a\u0000b.png", "é.png", "x".repeat(300)),
  contentType: fc.constantFrom("image/png", "text/plain", "application/octet-stream", ""),
  content: fc.constantFrom<Buffer | string>(TINY_PNG, "", "not an image", Buffer.alloc(70_000, 7)),
});

function pathValue(name: string, kind: string, pools: Pools): fc.Arbitrary<WireValue> {
  const valid =
    kind === "int" ? idFor(name, pools).map((n) => text(String(n))) : fc.oneof(idFor(name, pools).map((n) => text(String(n))), fc.constantFrom(...pools.strings, "me").map(text));
  // Past the router's 1024-character limit on a path parameter (http/hardening.ts) too.
  const long = fc.constantFrom(300, 1_025, 5_000).map((n) => text("9".repeat(n)));
  return fc.oneof({ weight: 8, arbitrary: valid }, { weight: 3, arbitrary: paramValue(kind, name, undefined, pools, (n) => n) }, { weight: 1, arbitrary: long });
}

export interface RequestContext {
  pools: Pools;
  /** OpenAPI parameter schemas of the operation, when documented. */
  schemas: Record<string, Json>;
  resolve(node: Json): Json;
}

export function requestArbitrary(ep: AnyEndpoint, ctx: RequestContext): fc.Arbitrary<FuzzRequest> {
  const declared = Object.entries(ep.params as ParamTable);
  const pathArbs = Object.fromEntries(declared.filter(([, s]) => s.inPath).map(([name, s]) => [name, pathValue(name, s.kind, ctx.pools)]));
  const bodyParams = declared.filter(([, s]) => !s.inPath);
  // Half the requests are valid-looking throughout, so that handlers' deeper logic runs too.
  const params = fc.boolean().chain((hostile) => {
    const one = ([name, spec]: (typeof bodyParams)[number]) => {
      const schema = ctx.schemas[name];
      const value = hostile ? paramValue(spec.kind, name, schema, ctx.pools, ctx.resolve) : validLooking(spec.kind, name, schema, ctx.pools, ctx.resolve);
      const sentAs = fc.constantFrom(name, ...spec.aliases);
      // Required parameters are usually present; optional ones about half the time.
      const presence = fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x < (spec.required ? (hostile ? 0.85 : 0.97) : 0.45));
      return fc.tuple(presence, sentAs, value).map(([present, key, v]) => (present ? [[key, v] as [string, WireValue]] : []));
    };
    const extras = fc.array(fc.tuple(fc.constantFrom(...EXTRA_NAMES, ...bodyParams.map(([n]) => n)), paramValue("string", "extra", undefined, ctx.pools, ctx.resolve)), {
      maxLength: hostile ? 3 : 1,
    });
    // One hostile request in five puts a giant value in place of a parameter's (or as an extra):
    // building, sending and parsing those bodies is most of the suite's time.
    const giant = hostile
      ? fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.tuple(fc.nat(), giantValue("giant", ctx.pools)) })
      : fc.constant(undefined);
    return fc.tuple(fc.tuple(...bodyParams.map(one)), extras, giant).map(([lists, extra, huge]) => {
      const all = [...lists.flat(), ...extra];
      if (huge && all.length > 0) all[huge[0] % all.length] = [all[huge[0] % all.length][0], huge[1]];
      else if (huge) all.push(["giant", huge[1]]);
      return all;
    });
  });
  const encodings: Encoding[] = ep.method === "GET" ? ["query"] : ["form", "form", "query", "json", "json-typed", "multipart", "split"];
  return fc.record({
    caller: fc.constantFrom(...CALLERS[ep.auth]),
    path: Object.keys(pathArbs).length > 0 ? fc.record(pathArbs) : fc.constant({}),
    params,
    encoding: fc.constantFrom(...encodings),
    file: ep.streamsFiles ? fc.option(fileArb, { nil: undefined }) : fc.constant(undefined),
  });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Percent-encodes text for a URL or form, including lone surrogates (as their WTF-8 bytes). */
export function percentEncode(s: string): string {
  if (!LONE_SURROGATE.test(s)) return encodeURIComponent(s);
  return [...s]
    .map((ch) => {
      if (!LONE_SURROGATE.test(ch)) return encodeURIComponent(ch);
      const cp = ch.charCodeAt(0);
      return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)].map((b) => "%" + b.toString(16).toUpperCase()).join("");
    })
    .join("");
}

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

const wire = (v: WireValue) => ("text" in v ? percentEncode(v.text) : v.encoded);
const formOf = (pairs: Array<[string, WireValue]>) => pairs.map(([k, v]) => `${percentEncode(k)}=${wire(v)}`).join("&");

/** The URL path (under /api/v1) with path parameters filled in. */
export function urlPath(ep: AnyEndpoint, req: FuzzRequest): string {
  return ep.path.replace(/:(\w+)|\*/g, (_m, name: string | undefined) => {
    const value = req.path[name ?? "*"];
    return value ? wire(value) : "";
  });
}

export interface EncodedBody {
  query: string;
  contentType?: string;
  payload?: string | Buffer;
}

/** Splits parameters between the query string and a body, in the request's encoding. */
export function encodeParams(req: FuzzRequest, multipart: (parts: Part[]) => { payload: Buffer; contentType: string }): EncodedBody {
  const allText = req.params.every(([, v]) => "text" in v);
  const encoding = ["json", "json-typed", "multipart"].includes(req.encoding) && !allText ? "form" : req.encoding;
  if (encoding === "query") return { query: formOf(req.params) };
  if (encoding === "split") {
    const half = Math.ceil(req.params.length / 2);
    return { query: formOf(req.params.slice(0, half)), contentType: "application/x-www-form-urlencoded", payload: formOf(req.params.slice(half)) };
  }
  if (encoding === "json" || encoding === "json-typed") {
    // Written by hand: JSON.stringify would overflow the stack on the deepest values.
    const member = ([k, v]: [string, WireValue]) => {
      const value = (v as { text: string }).text;
      return `${JSON.stringify(k)}:${encoding === "json-typed" && isJson(value) ? value : JSON.stringify(value)}`;
    };
    return { query: "", contentType: "application/json", payload: `{${req.params.map(member).join(",")}}` };
  }
  if (encoding === "multipart" || req.file) {
    const fields: Part[] = req.params.filter(([, v]) => "text" in v).map(([k, v]) => ({ field: k, content: (v as { text: string }).text }));
    const { payload, contentType } = multipart(req.file ? [...fields, { ...req.file, field: "file" }] : fields);
    const rest = req.params.filter(([, v]) => !("text" in v));
    return { query: formOf(rest), contentType, payload };
  }
  return { query: "", contentType: "application/x-www-form-urlencoded", payload: formOf(req.params) };
}

/** A short description of a request for failure messages (huge values are abbreviated). */
export function describeRequest(ep: AnyEndpoint, req: FuzzRequest): string {
  const show = (v: WireValue) => {
    const s = "text" in v ? JSON.stringify(v.text) : `raw:${v.encoded}`;
    return s.length > 120 ? `${s.slice(0, 100)}…(${s.length} chars)` : s;
  };
  const params = req.params.map(([k, v]) => `${k.length > 40 ? k.slice(0, 40) + "…" : k}=${show(v)}`).join(" ");
  const path = Object.entries(req.path).map(([k, v]) => `${k}=${show(v)}`).join(" ");
  const file = req.file ? ` file=${JSON.stringify(req.file.filename)}` : "";
  return `${ep.method} ${ep.path} as ${req.caller ?? "nobody"} [${req.encoding}] ${path} ${params}${file}`;
}
