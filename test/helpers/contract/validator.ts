/**
 * The contract as validators: for a response (operation, status, body) or a delivered event, the
 * list of violations, each naming where it happened, the JSON path in the body and the schema rule
 * broken. Operations come from the current OpenAPI document (./document.ts) or, for those it does
 * not describe, from ./newer-schemas.ts; the document is patched by ./deviations.ts first and by
 * nothing else. Every schema is compiled once per process, on first use.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { applyDeviations } from "./apply-deviations.js";
import { DEVIATIONS } from "./deviations.js";
import { atPointer, DOCUMENT_ID, escapePointer, loadDocument, type ErrorExample, type Json } from "./document.js";
import { ErrorContract } from "./errors.js";
import { ALIASES, METHOD_NOT_ALLOWED, NEWER_EVENTS, NEWER_OPERATIONS, TEST_ENDPOINT_SUCCESS } from "./newer-schemas.js";
import { COLLECTING, describeViolation, toViolations, type Violation } from "./violation.js";

export { describeViolation, type Violation } from "./violation.js";

const EVENTS_POINTER = "/paths/~1events/get/responses/200/content/application~1json/schema";

/** Where the operation's routes differ only in their parameters' names: `/users/{user_id}` ≡ `/users/:user_id`. */
export const pathShape = (path: string) => path.replace(/\{[^}]+\}|:[^/]+|\*/g, "{}");

export class Contract {
  // Referenced schemas compiled once as functions of their own and no optimising pass: a third of
  // the compile time for POST /register (the largest schema), at no measurable cost per answer.
  private readonly ajv = new Ajv({ strict: false, allErrors: true, verbose: COLLECTING, inlineRefs: false, code: { optimize: false } });
  private readonly doc: Json;
  private readonly compiled = new Map<string, ValidateFunction>();
  /** "METHOD /shape" → the document paths serving it (aliases like /users/{user_id} and /users/{email}). */
  private readonly documented = new Map<string, string[]>();
  /** event type → its alternatives in the document's GET /events schema, with their ops (null: no op). */
  private readonly eventAlternatives = new Map<string, Array<{ ops: string[] | null; pointer: string }>>();
  private readonly errors: ErrorContract;
  /** This process's copy of newer-schemas.ts's operations, as ./deviations.ts patches them. */
  private readonly newerOperations: typeof NEWER_OPERATIONS = structuredClone(NEWER_OPERATIONS);

  constructor(doc: Json, errorExamples: ErrorExample[]) {
    this.doc = doc;
    // Indexed before the deviations (whose targets name events) and again after (they may add ops).
    this.indexEvents();
    applyDeviations(DEVIATIONS, { doc, eventPointer: (label) => this.eventPointerFor(label), newerOperations: this.newerOperations });
    this.indexEvents();
    this.ajv.addSchema({ ...doc, $id: DOCUMENT_ID });
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const method of Object.keys(item as Json)) {
        const key = `${method.toUpperCase()} ${pathShape(path)}`;
        this.documented.set(key, [...(this.documented.get(key) ?? []), path]);
      }
    }
    this.errors = new ErrorContract(errorExamples, { pointer: (p) => this.compilePointer(p), schema: (key, schema) => this.compileSchema(key, schema) });
  }

  private compilePointer(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  private compileSchema(key: string, schema: Json): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  private indexEvents(): void {
    this.eventAlternatives.clear();
    const alternatives = atPointer(this.doc, `${EVENTS_POINTER}/allOf/1/properties/events/items/oneOf`) as Json[];
    // Reaction events declare their properties inside an allOf; deviations wrap some in an anyOf.
    const propsOf = (node: Json): Json =>
      Object.assign({}, ...[...((node.anyOf as Json[] | undefined)?.slice(0, 1) ?? []), ...((node.allOf as Json[] | undefined) ?? [])].map(propsOf), node.properties ?? {});
    alternatives.forEach((alt, i) => {
      const props = propsOf(alt);
      const typeEnum = (((props.type as Json | undefined)?.allOf as Json[] | undefined) ?? []).find((x) => x.enum)?.enum as string[] | undefined;
      const ops = ((props.op as Json | undefined)?.enum as string[] | undefined) ?? null;
      for (const type of typeEnum ?? []) {
        const list = this.eventAlternatives.get(type) ?? [];
        list.push({ ops, pointer: `${EVENTS_POINTER}/allOf/1/properties/events/items/oneOf/${i}` });
        this.eventAlternatives.set(type, list);
      }
    });
  }

  /** `event:realm_user/add` → the pointer of that event's schema (for ./deviations.ts targets). */
  private eventPointerFor(label: string): string | undefined {
    const [type, op] = label.split("/");
    return this.eventAlternatives.get(type)?.find((alt) => (op ? alt.ops?.includes(op) : alt.ops === null))?.pointer;
  }

  /** The document paths of `METHOD /shape`, or undefined when the document does not describe it. */
  documentedPaths(method: string, route: string): string[] | undefined {
    return this.documented.get(`${method} ${pathShape(route)}`);
  }

  /** Where the contract for Parley's route comes from, or null when nothing describes it. */
  sourceOf(method: string, route: string): "document" | "newer-schemas.ts" | null {
    const key = `${method} ${route}`;
    if (ALIASES[key]) return this.sourceOf(ALIASES[key].split(" ")[0], ALIASES[key].split(" ")[1]);
    if (NEWER_OPERATIONS[key]) return "newer-schemas.ts";
    return this.documentedPaths(method, route) ? "document" : null;
  }

  /** Compiles the success schemas of a route (the summary test compiles them all); their number. */
  compileOperation(method: string, route: string): number {
    return this.successValidators(method, route)?.length ?? 0;
  }

  /** Compiles the error shapes of every code the contract knows fields for; their number. */
  compileErrorShapes(): number {
    return this.errors.compileAll();
  }

  /** Every event type/op the contract describes (documented or newer), each schema compiled. */
  compileEvents(): string[] {
    const labels: string[] = [];
    for (const [type, alternatives] of this.eventAlternatives) {
      for (const alt of alternatives) {
        this.compilePointer(alt.pointer);
        labels.push(...(alt.ops ?? [""]).map((op) => (op ? `${type}/${op}` : type)));
      }
    }
    for (const [type, newer] of Object.entries(NEWER_EVENTS)) {
      for (const [op, schema] of Object.entries(newer.ops)) {
        this.compileSchema(`event ${op ? `${type}/${op}` : type}`, schema);
        labels.push(op ? `${type}/${op}` : type);
      }
    }
    return [...new Set(labels)].sort();
  }

  private responseSchemaPointer(path: string, method: string, status: string): string | undefined {
    let pointer = `/paths/${escapePointer(path)}/${method.toLowerCase()}/responses/${status}`;
    let node = atPointer(this.doc, pointer) as Json | undefined;
    if (node && typeof node.$ref === "string") {
      pointer = node.$ref.slice(`${DOCUMENT_ID}#`.length);
      node = atPointer(this.doc, pointer) as Json | undefined;
    }
    if (!node || !atPointer(node, "/content/application~1json/schema")) return undefined;
    return `${pointer}/content/application~1json/schema`;
  }

  /**
   * GET /events answers are held to their envelope here; each event in them was validated when it
   * was queued (checkEvent), by its type's own schema rather than the 77-way oneOf.
   */
  private eventsEnvelope(): ValidateFunction {
    return this.compileSchema("events-envelope", {
      allOf: [
        { $ref: `${DOCUMENT_ID}#/components/schemas/JsonSuccessBase` },
        {
          additionalProperties: false,
          required: ["events"],
          properties: {
            result: {}, msg: {}, ignored_parameters_unsupported: {}, queue_id: { type: "string" },
            events: { type: "array", items: { type: "object", required: ["id", "type"] } },
          },
        },
      ],
    });
  }

  /** Validators for a 2xx answer of `METHOD route`; null when Parley's operation is not in the contract. */
  private successValidators(method: string, route: string): ValidateFunction[] | null {
    const alias = ALIASES[`${method} ${route}`];
    if (alias) return this.successValidators(alias.split(" ")[0], alias.split(" ")[1]);
    const newer = this.newerOperations[`${method} ${route}`];
    if (newer) return [this.compileSchema(`newer ${method} ${route}`, newer.schema)];
    const paths = this.documentedPaths(method, route);
    if (!paths) return null;
    if (method === "GET" && pathShape(route) === "/events") return [this.eventsEnvelope()];
    return paths.map((p) => this.responseSchemaPointer(p, method, "200")).filter((p): p is string => !!p).map((p) => this.compilePointer(p));
  }

  private errorViolations(where: string, method: string, route: string | null, status: number, body: Json): Violation[] {
    if (status === 405) {
      const validate = this.compileSchema("405", METHOD_NOT_ALLOWED);
      return validate(body) ? [] : toViolations(where, validate.errors);
    }
    // The operation's own documented answers for this status come first (inline error shapes).
    const documented = (route ? (this.documentedPaths(method, route) ?? []) : [])
      .map((p) => this.responseSchemaPointer(p, method, String(status)))
      .filter((p): p is string => !!p)
      .map((p) => this.compilePointer(p));
    return this.errors.check(where, body, documented);
  }

  /**
   * Violations of one API answer. `route` is Parley's route (`/users/:user_id`), or null for a path
   * no route serves (the 404 envelope). `testEndpoint`: a route of an HTTP-layer test's own endpoint
   * table, held to the envelope only.
   */
  checkResponse(method: string, route: string | null, status: number, body: unknown, testEndpoint = false): Violation[] {
    const where = `${method} ${route ?? "(no route)"} → ${status}`;
    if (!body || typeof body !== "object" || Array.isArray(body)) return [{ where, path: "", rule: "type: the body is not a JSON object" }];
    if (status >= 400) return this.errorViolations(where, method, route, status, body as Json);
    if (status < 200 || status >= 300) return [{ where, path: "", rule: `status: ${status} with a JSON body` }];
    if (testEndpoint || route === null) {
      const validate = this.compileSchema("test-endpoint", TEST_ENDPOINT_SUCCESS);
      return validate(body) ? [] : toViolations(where, validate.errors);
    }
    const validators = this.successValidators(method, route);
    if (validators === null) return [{ where, path: "", rule: "undescribed: neither the document nor newer-schemas.ts describes this operation" }];
    if (validators.length === 0) return [{ where, path: "", rule: "undescribed: the document has no JSON success schema for this operation" }];
    if (validators.some((v) => v(body))) return [];
    return toViolations(where, validators[0].errors);
  }

  /** Violations of one event as a queue delivers it (with its `id`). */
  checkEvent(event: Json): Violation[] {
    const label = `${String(event.type)}${event.op === undefined ? "" : `/${String(event.op)}`}`;
    const where = `event ${label}`;
    const newer = NEWER_EVENTS[String(event.type)];
    const newerSchema = newer?.ops[event.op === undefined ? "" : String(event.op)];
    if (newerSchema) {
      const validate = this.compileSchema(`event ${label}`, newerSchema);
      return validate(event) ? [] : toViolations(where, validate.errors);
    }
    // A type the document lacks has only the ops described here; a documented one keeps its own.
    if (newer && !newer.documentedType) return [{ where, path: "/op", rule: `enum: newer-schemas.ts knows the ops ${Object.keys(newer.ops).join(", ")}` }];
    const candidates = (this.eventAlternatives.get(String(event.type)) ?? []).filter((c) => !c.ops || c.ops.includes(String(event.op)));
    if (candidates.length === 0) return [{ where, path: "", rule: "undescribed: no schema for this event type/op in the document or newer-schemas.ts" }];
    const validators = candidates.map((c) => this.compilePointer(c.pointer));
    if (validators.some((v) => v(event))) return [];
    return toViolations(where, validators[0].errors);
  }
}

let cached: Contract | null | undefined;

/** The process's contract, built once; null when ../shared is absent. */
export function contract(): Contract | null {
  if (cached === undefined) {
    const loaded = loadDocument();
    cached = loaded ? new Contract(loaded.doc, loaded.errorExamples) : null;
  }
  return cached;
}

/**
 * The violations of some events, as lines (none without ../shared): for tests that assert on the
 * events they collected. Every queued event is also checked by ./hook.ts as it is delivered.
 */
export function eventViolations(events: readonly Json[]): string[] {
  const checker = contract();
  return checker ? events.flatMap((e) => checker.checkEvent(e).map(describeViolation)) : [];
}
