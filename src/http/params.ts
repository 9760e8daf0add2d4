/**
 * Parameter declarations: each endpoint lists its parameters once, as data, and this module turns a
 * raw form/query value into a typed value or one of Zulip's parameter errors
 * (REQUEST_VARIABLE_MISSING / REQUEST_VARIABLE_INVALID / INVALID_JSON; spec conventions 1).
 * Integers, booleans, lists and objects arrive as JSON text inside the form value.
 */
import { invalidParam, malformedJson, missingParam, notFound } from "../errors.js";
import * as v from "../lib/validate.js";

export interface ParamSpec<T> {
  /** What the value is, for documentation and fuzzing: "int", "bool", "string", "json". */
  readonly kind: string;
  readonly required: boolean;
  readonly defaultValue?: T;
  /** Accepted older names (e.g. `subject` for `topic`); the first present one is used. */
  readonly aliases: readonly string[];
  /** Parsed from the URL path rather than the form. */
  readonly inPath: boolean;
  parse(raw: string, name: string): T;
}

class Spec<T> implements ParamSpec<T> {
  constructor(
    readonly kind: string,
    readonly parse: (raw: string, name: string) => T,
    readonly required = true,
    readonly defaultValue: T | undefined = undefined,
    readonly aliases: readonly string[] = [],
    readonly inPath = false,
  ) {}

  /** Not required; absent means `undefined`. */
  optional(): Spec<T | undefined> {
    return new Spec<T | undefined>(this.kind, this.parse, false, undefined, this.aliases, this.inPath);
  }

  /** Not required; absent means `value`. */
  default(value: T): Spec<T> {
    return new Spec<T>(this.kind, this.parse, false, value, this.aliases, this.inPath);
  }

  alias(...names: string[]): Spec<T> {
    return new Spec<T>(this.kind, this.parse, this.required, this.defaultValue, names, this.inPath);
  }

  path(): Spec<T> {
    return new Spec<T>(this.kind, this.parse, true, undefined, this.aliases, true);
  }

  /** Further checks on the parsed value (e.g. a range); the checker throws an ApiError. */
  check(fn: (value: T, name: string) => T): Spec<T> {
    const parse = this.parse;
    return new Spec<T>(this.kind, (raw, name) => fn(parse(raw, name), name), this.required, this.defaultValue, this.aliases, this.inPath);
  }
}

function parseJsonText(raw: string, name: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw malformedJson(name);
  }
}

/** Parameter constructors; values are validated with Zulip's message templates. */
export const p = {
  /** Integer, sent as `5` (plain or JSON text). */
  int: () =>
    new Spec<number>("int", (raw, name) => {
      const s = raw.trim();
      if (!/^-?\d+$/.test(s)) throw invalidParam(`${name} is not an integer`);
      const n = Number(s);
      if (!Number.isSafeInteger(n)) throw invalidParam(`${name} is too large`);
      return n;
    }),
  /** Boolean, sent as JSON `true`/`false`. */
  bool: () =>
    new Spec<boolean>("bool", (raw, name) => {
      const value = parseJsonText(raw, name);
      if (typeof value !== "boolean") throw invalidParam(`${name} is not a boolean`);
      return value;
    }),
  /** A string, taken as sent. */
  str: (opts: { maxLength?: number } = {}) =>
    new Spec<string>("string", (raw, name) => {
      if (opts.maxLength !== undefined && [...raw].length > opts.maxLength) {
        throw invalidParam(`${name} is too long (limit: ${opts.maxLength} characters)`);
      }
      return raw;
    }),
  /** One of a fixed set of strings. */
  oneOf: <const S extends string>(values: readonly S[]) =>
    new Spec<S>("string", (raw, name) => {
      if (!(values as readonly string[]).includes(raw)) throw invalidParam(`Invalid ${name}`);
      return raw as S;
    }),
  /** A JSON-encoded value checked by a validator from lib/validate. */
  json: <T>(validator: v.Validator<T>) =>
    new Spec<T>("json", (raw, name) => validator(parseJsonText(raw, name), name)),
  /** JSON list of integers, e.g. `[9, 10]`. */
  intList: () => p.json(v.listOf(v.int)),
};

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What makes a parsed value unstorable, if anything, in any string however deeply (JSON may escape
 * both as \u0000 or \ud800): U+0000, which PostgreSQL cannot hold in text (a 500) and SQLite would
 * keep; an unpaired surrogate, which both stores turn into U+FFFD, so two different values could
 * collide once stored (a 500 on a unique index; both found by fuzzing). Iterative: JSON may be deep.
 */
function unstorable(value: unknown): string | null {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (v.includes("\u0000")) return "null bytes";
      if (UNPAIRED_SURROGATE.test(v)) return "unpaired surrogates";
    } else if (v !== null && typeof v === "object") {
      // A loop, not push(...items): a list of millions of items would overflow the argument list.
      for (const item of Array.isArray(v) ? v : [...Object.keys(v), ...Object.values(v)]) stack.push(item);
    }
  }
  return null;
}

export type ParamTable = Record<string, ParamSpec<unknown>>;

export type ParsedParams<P extends ParamTable> = { [K in keyof P]: P[K] extends ParamSpec<infer T> ? T : never };

/**
 * Parses `raw` (already merged query + body, body winning) against the table.
 * Returns the typed values and the names of supplied parameters the endpoint does not accept.
 */
export function parseParams<P extends ParamTable>(
  table: P,
  raw: Record<string, string>,
  pathValues: Record<string, string>,
): { values: ParsedParams<P>; ignored: string[] } {
  const values: Record<string, unknown> = {};
  const used = new Set<string>();
  for (const [name, spec] of Object.entries(table)) {
    if (spec.inPath) {
      // A path segment of the wrong type means the URL names no endpoint (Zulip's <int:…> routes): 404.
      try {
        values[name] = spec.parse(pathValues[name] ?? "", name);
      } catch {
        throw notFound();
      }
      if (unstorable(values[name])) throw notFound();
      continue;
    }
    const key = [name, ...spec.aliases].find((k) => raw[k] !== undefined);
    if (key === undefined) {
      if (spec.required) throw missingParam(name);
      values[name] = spec.defaultValue;
      continue;
    }
    for (const k of [name, ...spec.aliases]) used.add(k);
    values[name] = spec.parse(raw[key], name);
    const problem = unstorable(values[name]);
    if (problem) throw invalidParam(`${name} must not contain ${problem}`);
  }
  const ignored = Object.keys(raw).filter((k) => !used.has(k) && !(k in table));
  return { values: values as ParsedParams<P>, ignored };
}
