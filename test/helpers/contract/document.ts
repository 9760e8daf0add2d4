/**
 * Zulip's current OpenAPI description (../shared/reference/zulip-openapi-current.yaml: Zulip 11.0,
 * feature level 378) as JSON Schema: the contract every response and event of the test suite is
 * held to (issue 15, item 2). Parsing the 1.3 MB yaml costs about half a second, and every test file
 * runs in its own process, so the converted document is cached as JSON in the system's temp
 * directory, keyed by the yaml's content hash. Absent file (a user's clone has no ../shared) →
 * `loadDocument()` returns null and every check is skipped visibly.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse } from "yaml";

export type Json = Record<string, unknown>;

export const OPENAPI_PATH = resolve(process.cwd(), "../shared/reference/zulip-openapi-current.yaml");
/** What the document describes; fields and values newer than this are listed in ./deviations.ts. */
export const DOCUMENT_FEATURE_LEVEL = 378;
/** The `$id` the document is registered under with Ajv; local refs are rewritten to it. */
export const DOCUMENT_ID = "openapi";
/** Bumped whenever toJsonSchema changes, so stale caches are not reused. */
const CONVERTER_VERSION = 2;

/** Keys that only document (and weigh most of the file); never names, since `properties` is walked apart. */
const DOC_ONLY = new Set(["description", "example", "examples", "summary", "x-curl-examples-parameters", "x-parameter-description"]);

/**
 * OpenAPI 3.0 → JSON Schema for Ajv: local `$ref`s point into the one registered document,
 * `nullable: true` becomes a null alternative, prose and examples go. Keys of `properties` are
 * field names (a channel's `description` is a field), so they are kept whatever they are called.
 */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === "nullable" || DOC_ONLY.has(k)) continue;
    if (k === "properties" && v && typeof v === "object") {
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([name, schema]) => [name, toJsonSchema(schema)]));
    } else if (k === "$ref" && typeof v === "string" && v.startsWith("#/")) {
      out[k] = `${DOCUMENT_ID}${v}`;
    } else {
      out[k] = toJsonSchema(v);
    }
  }
  if ((node as Json).nullable === true) return { anyOf: [out, { type: "null" }] };
  return out;
}

export interface ErrorExample {
  /** JSON pointer of the schema whose example this is. */
  pointer: string;
  code: string;
  /** Keys the example carries: an error with this code always sends them. */
  keys: string[];
}

export interface LoadedDocument {
  /** The converted document (a fresh copy each load: ./deviations.ts patches it in place). */
  doc: Json;
  /** Every documented error example with its code (the converted document has no examples). */
  errorExamples: ErrorExample[];
}

function errorExamplesOf(raw: unknown): ErrorExample[] {
  const found: ErrorExample[] = [];
  const walk = (node: unknown, pointer: string) => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, `${pointer}/${i}`));
    const example = (node as Json).example as Json | undefined;
    if (example && example.result === "error" && typeof example.code === "string" && pointer.includes("/schema")) {
      // The example sits on the allOf part that lists the fields; the schema is its parent.
      const owner = /\/allOf\/\d+$/.test(pointer) ? pointer.replace(/\/allOf\/\d+$/, "") : pointer;
      found.push({ pointer: owner, code: example.code, keys: Object.keys(example).sort() });
    }
    for (const [k, v] of Object.entries(node as Json)) if (k !== "example") walk(v, `${pointer}/${escapePointer(k)}`);
  };
  walk(raw, "");
  return found;
}

export const escapePointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

function cachePath(text: string): string {
  const hash = createHash("sha256").update(text).update(String(CONVERTER_VERSION)).digest("hex").slice(0, 16);
  return join(tmpdir(), `parley-openapi-${hash}.json`);
}

/** The document, converted (from the cache when this content was converted before), or null. */
export function loadDocument(path = OPENAPI_PATH): LoadedDocument | null {
  if (!existsSync(path)) return null;
  const text = readFileSync(path, "utf8");
  const cached = cachePath(text);
  if (existsSync(cached)) {
    try {
      return JSON.parse(readFileSync(cached, "utf8")) as LoadedDocument;
    } catch {
      // A torn or foreign file: convert again below and replace it.
    }
  }
  const raw = parse(text) as unknown;
  const loaded: LoadedDocument = { doc: toJsonSchema(raw) as Json, errorExamples: errorExamplesOf(raw) };
  // Written aside and renamed, so a test process running alongside never reads half a file.
  const partial = `${cached}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(loaded));
  renameSync(partial, cached);
  return loaded;
}

/** The node at a JSON pointer (`/paths/~1events/get/…`), or undefined. */
export function atPointer(root: unknown, pointer: string): unknown {
  let node = root;
  for (const part of pointer.split("/").slice(1)) {
    if (!node || typeof node !== "object") return undefined;
    node = (node as Json)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node;
}

/** Pointer of an operation's response schema: `/paths/~1events/get/responses/200/content/application~1json/schema`. */
export function responsePointer(path: string, method: string, status: string): string {
  return `/paths/${escapePointer(path)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
}
