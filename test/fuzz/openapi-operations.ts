/**
 * Zulip's OpenAPI description (../shared/reference/zulip-openapi.yaml, FL 261) per operation, for
 * the fuzz suite: the JSON Schema of each parameter (to generate valid-looking values) and a
 * validator for success bodies. Parley's endpoints are matched to the document's paths with every
 * path parameter treated alike (`/users/:user_id` is the document's `/users/{user_id_or_email}`).
 * Absent file → `available` false.
 */
import { existsSync, readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import { parse } from "yaml";
import { OPENAPI_PATH, toJsonSchema, type Json } from "../helpers/openapi.js";

export interface Operation {
  /** Raw OpenAPI schema of each documented parameter, by name (`$ref`s resolve with `resolve`). */
  params: Record<string, Json>;
  /** Problems with a 2xx body, or [] when it matches the documented success response. */
  checkSuccess(body: unknown): string[];
}

export interface OpenApiOperations {
  available: boolean;
  find(method: string, path: string): Operation | undefined;
  /** Follows a local `$ref` (`#/components/…`) of the raw document. */
  resolve(node: Json): Json;
}

/**
 * The document is FL 261 and Parley serves a far newer level (zulip-facts section a: trust the
 * changelog over the yaml for anything newer), which adds fields to many objects. So success bodies
 * are held to the documented fields' types and required fields, while `additionalProperties: false`
 * is relaxed: a newer field is not a defect, a missing or mistyped documented one is.
 */
function allowNewerFields(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(allowNewerFields);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node as Json)
      .filter(([k, v]) => !(k === "additionalProperties" && v === false))
      .map(([k, v]) => [k, allowNewerFields(v)]),
  );
}

const shapeOf = (path: string) => path.replace(/\{[^}]+\}|:[^/]+|\*/g, "{}");

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
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ $id: "openapi", components: (allowNewerFields(toJsonSchema(raw)) as { components: Json }).components });
  const byShape = new Map<string, Json[]>();
  for (const [path, item] of Object.entries(raw.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const key = `${method.toUpperCase()} ${shapeOf(path)}`;
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
    const body = ((op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.["application/x-www-form-urlencoded"];
    const props = ((body?.schema as Json | undefined)?.properties as Record<string, Json> | undefined) ?? {};
    for (const [name, schema] of Object.entries(props)) out[name] = schema;
    return out;
  }

  function successValidator(op: Json): ValidateFunction | undefined {
    const responses = op.responses as Record<string, Json>;
    const ok = responses["200"] ? resolve(responses["200"]) : undefined;
    const schema = ((ok?.content as Record<string, Json> | undefined)?.["application/json"]?.schema as Json | undefined);
    return schema ? ajv.compile(allowNewerFields(toJsonSchema(schema)) as Json) : undefined;
  }

  function build(ops: Json[]): Operation {
    const validators = ops.map(successValidator).filter((v): v is ValidateFunction => v !== undefined);
    return {
      params: Object.assign({}, ...ops.map(paramsOf)) as Record<string, Json>,
      checkSuccess(body) {
        const problems: string[] = [];
        for (const validate of validators) {
          if (validate(body)) return [];
          problems.push(...(validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`));
        }
        return problems;
      },
    };
  }

  return {
    available: true,
    resolve,
    find(method, path) {
      const key = `${method} ${shapeOf(path)}`;
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
