/**
 * Zulip's current OpenAPI description (../shared/reference/zulip-openapi-current.yaml, FL 378) per
 * operation, for the fuzz suite: the raw schema of each parameter, examples included, to generate
 * valid-looking values. Parley's endpoints are matched to the document's paths with every path
 * parameter treated alike (`/users/:user_id` is the document's `/users/{user_id}`). Answers are
 * held to the document by the contract hooks (test/helpers/contract/), as in every other test.
 * Absent file → `available` false.
 */
import { existsSync, readFileSync } from "node:fs";
import { parse } from "yaml";
import { OPENAPI_PATH, type Json } from "../helpers/contract/document.js";
import { pathShape } from "../helpers/contract/validator.js";

export interface Operation {
  /** Raw OpenAPI schema of each documented parameter, by name (`$ref`s resolve with `resolve`). */
  params: Record<string, Json>;
}

export interface OpenApiOperations {
  available: boolean;
  find(method: string, path: string): Operation | undefined;
  /** Follows a local `$ref` (`#/components/…`) of the raw document. */
  resolve(node: Json): Json;
}

function buildOperations(): OpenApiOperations {
  const raw = parse(readFileSync(OPENAPI_PATH, "utf8")) as Json;
  const resolve = (node: Json): Json => {
    let current = node;
    for (let hops = 0; typeof current.$ref === "string" && hops < 10; hops++) {
      const parts = (current.$ref as string).replace(/^#\//, "").split("/");
      current = parts.reduce<Json>((at, key) => at[key] as Json, raw);
    }
    return current;
  };
  const byShape = new Map<string, Json[]>();
  for (const [path, item] of Object.entries(raw.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const key = `${method.toUpperCase()} ${pathShape(path)}`;
      byShape.set(key, [...(byShape.get(key) ?? []), op as Json]);
    }
  }
  const cache = new Map<string, Operation | undefined>();

  function paramsOf(op: Json): Record<string, Json> {
    const out: Record<string, Json> = {};
    for (const ref of (op.parameters as Json[] | undefined) ?? []) {
      const param = resolve(ref);
      const content = param.content as Record<string, Json> | undefined;
      const schema = (param.schema as Json | undefined) ?? (content?.["application/json"]?.schema as Json | undefined);
      if (schema) out[String(param.name)] = schema;
    }
    // The current document shares some request bodies (components/requestBodies).
    const requestBody = op.requestBody ? resolve(op.requestBody as Json) : undefined;
    const body = (requestBody?.content as Record<string, Json> | undefined)?.["application/x-www-form-urlencoded"];
    const schema = body?.schema ? resolve(body.schema as Json) : undefined;
    const props = (schema?.properties as Record<string, Json> | undefined) ?? {};
    for (const [name, schema] of Object.entries(props)) out[name] = schema;
    return out;
  }

  const build = (ops: Json[]): Operation => ({ params: Object.assign({}, ...ops.map(paramsOf)) as Record<string, Json> });

  return {
    available: true,
    resolve,
    find(method, path) {
      const key = `${method} ${pathShape(path)}`;
      if (!cache.has(key)) {
        const ops = byShape.get(key);
        cache.set(key, ops ? build(ops) : undefined);
      }
      return cache.get(key);
    },
  };
}

let cached: OpenApiOperations | undefined;

export function openApiOperations(): OpenApiOperations {
  cached ??= existsSync(OPENAPI_PATH) ? buildOperations() : { available: false, find: () => undefined, resolve: (n) => n };
  return cached;
}
