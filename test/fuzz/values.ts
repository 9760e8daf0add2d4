/**
 * Value generators for the fuzz suite: for one declared parameter (its `kind` from src/http/params.ts
 * and, when Zulip documents it, its OpenAPI schema) a mix of valid-looking values and hostile ones:
 * wrong types, huge values, deep JSON, unicode edge cases, NUL bytes and invalid UTF-8 (sent as raw
 * percent-escapes, which no well-behaved client produces).
 */
import fc from "fast-check";
import type { Json } from "../helpers/contract/document.js";

/** A parameter value on the wire: text (percent-encoded when sent) or an already-encoded form token. */
export type WireValue = { text: string } | { encoded: string };

export const text = (s: string): WireValue => ({ text: s });

/** Ids and names that exist in the fuzzed realm, so valid-looking values reach the handlers' logic. */
export interface Pools {
  ids: Record<IdKind, number[]>;
  /** Emails, channel and topic names, emoji names, queue ids, upload paths. */
  strings: string[];
}

export type IdKind =
  | "user"
  | "channel"
  | "message"
  | "group"
  | "draft"
  | "snippet"
  | "scheduled"
  | "time"
  | "device"
  | "linkifier"
  | "field"
  | "folder"
  | "invite"
  | "attachment"
  | "realm";

/** Which pool an integer named like this most likely draws from (first match wins). */
const ID_HINTS: Array<[RegExp, IdKind]> = [
  [/timestamp/, "time"],
  [/scheduled_message|reminder/, "scheduled"],
  [/message|msg|anchor/, "message"],
  [/group/, "group"],
  [/folder/, "folder"],
  [/stream|channel|subscription/, "channel"],
  [/draft/, "draft"],
  [/snippet/, "snippet"],
  [/device/, "device"],
  [/filter|linkifier/, "linkifier"],
  [/field|profile|order/, "field"],
  [/invite/, "invite"],
  [/attachment/, "attachment"],
  [/realm/, "realm"],
  [/user|principal|owner|member|bot|^to$|sender|add|delete/, "user"],
];

/** Strings that break naive code: NUL and control characters, bidi and zero-width marks, astral and combining characters, case mappings that change length, markup, and path tricks. */
const EDGE_STRINGS = [
  "", " ", "\u0000", "a\u0000b", "\t\n\r", "\u0007\u001b[31m", "\uFEFF", "\u202Eevil", "\u200B", "\u2028\u2029",
  "👨‍👩‍👧‍👦", "🏳️‍🌈", "e\u0301\u0301\u0301", "\uFFFD", "\uFFFE\uFFFF", "\uD800", "\uDFFF", "\uD83D", "𝕳𝖆𝖒𝖑𝖊𝖙", "İ", "ß", "ﬃ",
  "Ω", "\u0130\u0131", "<script>alert(1)</script>", "'; DROP TABLE users; --", "%s%n", "${x}", "{{x}}", "../../../etc/passwd",
  "null", "true", "[]", "{}", "NaN", "-0", "undefined", "__proto__", "constructor", "*", "**", "@**all**", "@_**", "#**", "`",
];

/** Raw percent-escapes: invalid UTF-8 (lone continuation bytes, overlong forms, surrogates, beyond U+10FFFF, truncated sequences), NUL, and broken escapes. */
const ENCODED_JUNK = ["%FF", "%C0%80", "%C0%AF", "%ED%A0%80", "%F4%90%80%80", "%E2%82", "%80abc", "abc%FEdef", "%00", "a%00b", "%zz", "%", "%2", "%%41", "%F0%9F%98"];

const ODD_INTEGERS = [
  "0", "-1", "00001", "+5", " 5 ", "1.0", "1.5", "1e3", "0x10", "١٢٣", "Infinity", "-0", "2147483648", "4294967296",
  "9007199254740991", "9007199254740993", "-9007199254740993", "9223372036854775807", "9223372036854775808", "1e308", "1e400",
  "99999999999999999999999999999999",
];

const WRONG_TYPE: Record<string, string[]> = {
  int: ["abc", "true", "null", "[1]", "{}", "\"5\"", "", "[]"],
  bool: ["1", "0", "yes", "True", "\"true\"", "null", "[]", "", "{}"],
  json: ["[1,", "{", "nul", "'a'", "[1,2,]", "{'a':1}", "NaN", "", "\"unterminated", "[\"\\ud800\"]", "{\"a\":1,\"a\":2}", "5", "\"text\"", "null", "true"],
  string: ["[1,2]", "{\"a\":1}", "123", "true", "null"],
};

const WORDS = ["Verona", "Denmark", "fuzz", "test", "hello world", "general", "smile", "+1", "new-topic", "Rome", "ok"];

const oneLine = (s: fc.Arbitrary<string>) => s.map(text);

function poolArb<T>(values: readonly T[], fallback: T): fc.Arbitrary<T> {
  return values.length > 0 ? fc.constantFrom(...values) : fc.constant(fallback);
}

/** An id from the pool the name hints at, any pool, or another integer (absent and edge ids). */
export function idFor(name: string, pools: Pools): fc.Arbitrary<number> {
  const hinted = ID_HINTS.find(([pattern]) => pattern.test(name))?.[1];
  const all = Object.values(pools.ids).flat();
  return fc.oneof(
    { weight: hinted ? 6 : 0, arbitrary: poolArb(hinted ? pools.ids[hinted] : [], 1) },
    { weight: 3, arbitrary: poolArb(all, 1) },
    { weight: 1, arbitrary: fc.integer({ min: -2, max: 10 }) },
    { weight: 1, arbitrary: fc.integer({ min: 10, max: 100_000 }) },
    // Past PostgreSQL's INTEGER and up to the largest safe integer.
    { weight: 1, arbitrary: fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1) },
  );
}

/**
 * Built once: a fast-check string arbitrary over all of Unicode indexes every code point when
 * first shrunk or matched, which costs far more than the requests themselves if rebuilt per use.
 */
const RANDOM_STRINGS = {
  ascii: fc.string({ maxLength: 20 }),
  graphemes: fc.string({ unit: "grapheme", maxLength: 12 }),
  anyCodePoints: fc.string({ unit: "binary", maxLength: 30 }).map(text),
};

const plainString = (pools: Pools) => fc.oneof(fc.constantFrom(...WORDS), poolArb(pools.strings, "x"), RANDOM_STRINGS.ascii, RANDOM_STRINGS.graphemes);

/** A JSON value matching an OpenAPI schema, with ids drawn from the realm's pools. */
export function schemaValue(schema: Json, name: string, pools: Pools, resolve: (n: Json) => Json, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const examples = [s.example, ...(Array.isArray(s.examples) ? s.examples : [])].filter((e) => e !== undefined);
  const exampleArb = examples.length > 0 ? [fc.constantFrom(...examples)] : [];
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = (s.oneOf ?? s.anyOf) as Json[] | undefined;
  if (alternatives && depth < 4) return fc.oneof(...alternatives.map((alt) => schemaValue(alt, name, pools, resolve, depth + 1)));
  if (Array.isArray(s.allOf)) return schemaValue(Object.assign({}, ...(s.allOf as Json[]).map(resolve)) as Json, name, pools, resolve, depth + 1);
  switch (s.type) {
    case "integer":
      return fc.oneof(idFor(name, pools), ...exampleArb);
    case "number":
      return fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case "boolean":
      return fc.boolean();
    case "string":
      return fc.oneof(plainString(pools), ...exampleArb);
    case "array":
      if (depth >= 4) return fc.constant([]);
      return fc.oneof(fc.array(schemaValue((s.items as Json) ?? {}, name, pools, resolve, depth + 1), { maxLength: 4 }), ...exampleArb);
    case "object": {
      const props = (s.properties as Record<string, Json> | undefined) ?? {};
      if (depth >= 4 || Object.keys(props).length === 0) return fc.oneof(fc.constant({}), ...exampleArb);
      const shape = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, schemaValue(v, k, pools, resolve, depth + 1)]));
      const record = fc.record(shape, { requiredKeys: ((s.required as string[] | undefined) ?? []).filter((k) => k in props) });
      return fc.oneof(record, ...exampleArb);
    }
    default:
      return fc.oneof(genericJson(name, pools), ...exampleArb);
  }
}

/** Plausible JSON for an undocumented json parameter: ids, id lists, names, small objects. */
function genericJson(name: string, pools: Pools): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(idFor(name, pools), plainString(pools), fc.boolean(), fc.constant(null));
  return fc.oneof(
    scalar,
    fc.array(idFor(name, pools), { maxLength: 4 }),
    fc.array(plainString(pools), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("name", "id", "value", "operator", "operand", "direct_members", "direct_subgroups", "new", "old"), scalar, { maxKeys: 3 }),
    fc.array(fc.dictionary(fc.constantFrom("name", "id", "value", "operator", "operand", "stream_id", "property"), scalar, { maxKeys: 3 }), { maxLength: 2 }),
  );
}

/** A value a correct client could send for this parameter. */
export function validLooking(kind: string, name: string, schema: Json | undefined, pools: Pools, resolve: (n: Json) => Json): fc.Arbitrary<WireValue> {
  if (schema) {
    const asJson = kind === "json" || kind === "int" || kind === "bool";
    return schemaValue(schema, name, pools, resolve).map((v) => text(typeof v === "string" && !asJson ? v : JSON.stringify(v) ?? "null"));
  }
  if (kind === "int") return idFor(name, pools).map((n) => text(String(n)));
  if (kind === "bool") return fc.constantFrom(text("true"), text("false"));
  if (kind === "json") return genericJson(name, pools).map((v) => text(JSON.stringify(v)));
  return oneLine(plainString(pools));
}

/** Long strings (past every length limit) and lists of thousands of items. */
export function hugeValue(name: string, pools: Pools): fc.Arbitrary<WireValue> {
  const longString = fc
    .tuple(fc.constantFrom("a", "é", "😀", " ", "\u0000", "*_[`>", "@**", "(", "\\"), fc.constantFrom(61, 257, 1_001, 10_001, 70_000))
    .map(([unit, length]) => text(unit.repeat(Math.ceil(length / unit.length))));
  const bigList = fc
    .tuple(idFor(name, pools), fc.constantFrom(1_001, 5_001, 20_000), fc.boolean())
    .map(([id, n, strings]) => text(JSON.stringify(Array.from({ length: n }, (_, i) => (strings ? `s${i}` : id + i)))));
  return fc.oneof(longString, bigList);
}

/** Nested arrays and objects, deep enough to hit recursion limits in parsers and validators. */
export const deepJson: fc.Arbitrary<WireValue> = fc
  .tuple(fc.constantFrom(64, 1_000, 10_000, 30_000), fc.boolean())
  .map(([depth, objects]) => text(objects ? '{"a":'.repeat(depth) + "1" + "}".repeat(depth) : "[".repeat(depth) + "1" + "]".repeat(depth)));

/** Unicode edge cases, alone or around a valid-looking value. */
const unicodeEdge = (pools: Pools) =>
  fc.tuple(fc.constantFrom(...EDGE_STRINGS), plainString(pools), fc.constantFrom("alone", "before", "after")).map(([edge, word, where]) =>
    text(where === "alone" ? edge : where === "before" ? edge + word : word + edge),
  );

/** Raw percent-escapes, alone or inside an otherwise fine value. */
const encodedJunk = fc
  .tuple(fc.constantFrom(...ENCODED_JUNK), fc.constantFrom("", "abc", "5", "%5B1%5D"))
  .map(([junk, around]) => ({ encoded: around + junk + around }) as WireValue);

/** Every kind of value for one parameter except the giant ones (see giantValue). */
export function paramValue(kind: string, name: string, schema: Json | undefined, pools: Pools, resolve: (n: Json) => Json): fc.Arbitrary<WireValue> {
  return fc.oneof(
    { weight: 8, arbitrary: validLooking(kind, name, schema, pools, resolve) },
    { weight: 2, arbitrary: fc.constantFrom(...(WRONG_TYPE[kind] ?? WRONG_TYPE.string)).map(text) },
    { weight: 2, arbitrary: unicodeEdge(pools) },
    { weight: 1, arbitrary: encodedJunk },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_INTEGERS).map(text) },
    { weight: 1, arbitrary: RANDOM_STRINGS.anyCodePoints },
  );
}

/**
 * Huge and deeply nested values. A request carries at most one (requests.ts): their cost is in
 * building and parsing the body, and one per request finds what several would.
 */
export function giantValue(name: string, pools: Pools): fc.Arbitrary<WireValue> {
  return fc.oneof(hugeValue(name, pools), deepJson);
}
