/**
 * How the entries of ./deviations.ts change the contract: each names one schema node and one
 * change. An entry whose target does not exist, or that changes nothing (the field is documented
 * already, the value is in the enum already), throws at load, so the list cannot go stale silently
 * when the document is replaced.
 */
import { atPointer, escapePointer, type Json } from "./document.js";

/** Where a change applies. */
export type Target =
  /** A component schema of the document (`User`, `BasicChannel`), optionally a node inside it. */
  | { component: string; at?: string }
  /** An operation's response schema in the document (`POST /register`, status 200 by default). */
  | { response: string; status?: string; at?: string }
  /** An event's schema in the document (`realm_user/add`, or `presence` for events without op). */
  | { event: string; at?: string }
  /** An operation's schema in ./newer-schemas.ts. */
  | { newerOperation: string; at?: string }
  /** Error answers with this code (the document describes few codes' fields). */
  | { errorCode: string };

export type Change =
  /** Fields an object may carry besides the documented ones (it stays closed to anything else). */
  | { addProperties: Record<string, Json> }
  /** Values an enum accepts besides the documented ones. */
  | { addEnum: unknown[] }
  /** Documented required fields that may be absent. */
  | { optional: string[] }
  /** Another accepted shape for the node (the documented one still validates). */
  | { alternative: Json };

export interface Deviation {
  target: Target;
  change: Change;
  /**
   * newer: added after FL 378 (`level`: the feature level, or the release when no level was found);
   * undocumented: Zulip itself answers so, the document omits it; differs: a deliberate Parley
   * difference; pending: fixed on another branch of issue 15 (`owner`), to delete on merge.
   */
  kind: "newer" | "undocumented" | "differs" | "pending";
  level?: number | string;
  owner?: string;
  why: string;
  /** On an error code's addProperties: errors with that code may also come without these fields. */
  fieldsOptional?: boolean;
}

export const describeTarget = (t: Target): string => {
  if ("component" in t) return `schema ${t.component}${t.at ? ` at ${t.at}` : ""}`;
  if ("response" in t) return `${t.response} → ${t.status ?? "200"}${t.at ? ` at ${t.at}` : ""}`;
  if ("event" in t) return `event ${t.event}${t.at ? ` at ${t.at}` : ""}`;
  if ("newerOperation" in t) return `${t.newerOperation} (newer-schemas.ts)${t.at ? ` at ${t.at}` : ""}`;
  return `errors with code ${t.errorCode}`;
};

/** The node to change: through a nullable wrapper, into the allOf part that closes the object. */
function objectNode(node: Json): Json {
  const anyOf = node.anyOf as Json[] | undefined;
  if (anyOf?.length === 2 && anyOf[1].type === "null") return objectNode(anyOf[0]);
  if (node.properties || node.additionalProperties !== undefined) return node;
  const parts = (node.allOf as Json[] | undefined) ?? [];
  const closing = parts.find((p) => p.additionalProperties === false) ?? parts.find((p) => p.properties);
  if (!closing) throw new Error("not an object schema");
  return closing;
}

export function applyChange(node: Json, change: Change): void {
  if ("addProperties" in change) {
    const object = objectNode(node);
    const properties = (object.properties ??= {}) as Json;
    for (const [name, schema] of Object.entries(change.addProperties)) {
      if (name in properties) throw new Error(`${name} is documented already`);
      properties[name] = schema;
    }
  } else if ("addEnum" in change) {
    const values = node.enum as unknown[] | undefined;
    if (!values) throw new Error("not an enum");
    for (const v of change.addEnum) {
      if (values.includes(v)) throw new Error(`${JSON.stringify(v)} is documented already`);
      values.push(v);
    }
  } else if ("optional" in change) {
    const object = objectNode(node);
    const required = (object.required as string[] | undefined) ?? [];
    const missing = change.optional.filter((name) => !required.includes(name));
    if (missing.length > 0) throw new Error(`${missing.join(", ")} not required`);
    object.required = required.filter((name) => !change.optional.includes(name));
  } else {
    const documented = { ...node };
    for (const key of Object.keys(node)) delete node[key];
    node.anyOf = [documented, change.alternative];
  }
}

export interface Roots {
  doc: Json;
  /** The pointer of an event's schema by `type/op` label. */
  eventPointer(label: string): string | undefined;
  /** The (per-process copy of the) schemas of ./newer-schemas.ts, by operation. */
  newerOperations: Record<string, { schema: Json }>;
}

function targetNode(roots: Roots, target: Exclude<Target, { errorCode: string }>): unknown {
  let root: unknown = roots.doc;
  let base: string | undefined;
  if ("component" in target) base = `/components/schemas/${target.component}`;
  else if ("event" in target) base = roots.eventPointer(target.event);
  else if ("newerOperation" in target) [root, base] = [roots.newerOperations[target.newerOperation]?.schema, ""];
  else {
    const [method, path] = target.response.split(" ");
    base = `/paths/${escapePointer(path)}/${method.toLowerCase()}/responses/${target.status ?? "200"}/content/application~1json/schema`;
  }
  if (base === undefined || root === undefined) throw new Error("no such event or operation");
  return atPointer(root, target.at ? `${base}/${target.at}` : base);
}

/** Applies the entries (all but the error-code ones) to the converted document, in place. */
export function applyDeviations(deviations: readonly Deviation[], roots: Roots): void {
  for (const d of deviations) {
    if ("errorCode" in d.target) continue;
    try {
      const node = targetNode(roots, d.target);
      if (!node || typeof node !== "object") throw new Error("no such schema node");
      applyChange(node as Json, d.change);
    } catch (error) {
      throw new Error(`deviations.ts: the ${d.kind} entry for ${describeTarget(d.target)} (${d.why}) is stale: ${(error as Error).message}`, { cause: error });
    }
  }
}
