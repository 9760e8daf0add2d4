/**
 * Parameter collection and parsing over HTTP (spec conventions 1 and 3, zulip-facts section e):
 * where parameters are read from, how JSON-in-form values are decoded, and Zulip's error templates.
 * Store-independent, so it runs on SQLite only.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { endpoint, type HttpMethod } from "../../src/http/endpoint.js";
import { p, type ParamTable } from "../../src/http/params.js";
import * as v from "../../src/lib/validate.js";
import type { ApiResponse } from "../helpers/fixtures.js";
import { buildEndpointApp, send, type EchoApp, type Method, type SendOptions } from "../helpers/http.js";

/** Echoes its parsed parameters, so each test sees exactly what the declaration produced. */
const echo = (method: HttpMethod) =>
  endpoint({
    method,
    path: "/echo",
    auth: "none",
    params: {
      op: p.oneOf(["add", "remove"] as const),
      to: p.intList().optional(),
      x: p.int().optional(),
      flag: p.bool().optional(),
      obj: p.json(v.object({ a: v.field(v.int), b: v.optionalField(v.str) })).optional(),
      name: p.str().optional(),
      topic: p.str().alias("subject").optional(),
    },
    async handler(_ctx, params) {
      return { params };
    },
  });

/** Echoes the parameters of a GET route with path parameters. */
const echoPath = <P extends ParamTable>(path: string, params: P) =>
  endpoint({
    method: "GET",
    path,
    auth: "none",
    params,
    async handler(_ctx, parsed) {
      return { params: parsed };
    },
  });

const withPath = echoPath("/things/:thing_id", { thing_id: p.int().path() });
const withNamePath = echoPath("/names/:name", { name: p.str().path() });

function assertError(res: ApiResponse, code: string, msg: string, extra: Record<string, unknown> = {}) {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.deepEqual(res.body, { result: "error", msg, code, ...extra });
}

describe("request parameters", () => {
  let h: EchoApp;
  const call = (method: Method, opts: SendOptions) => send(h.app, method, "/echo", opts);
  const params = async (method: Method, opts: SendOptions) => {
    const res = await call(method, opts);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.params;
  };

  before(async () => {
    h = await buildEndpointApp([echo("GET"), echo("POST"), echo("PATCH"), echo("DELETE"), withPath, withNamePath]);
  });
  after(() => h.close());

  it("decodes JSON inside form values: int lists, booleans, objects, plain ints", async () => {
    const res = await call("POST", { form: "op=add&to=%5B9%2C+10%5D&flag=true&obj=%7B%22a%22%3A1%7D&x=5" });
    assert.deepEqual(res.body, { result: "success", msg: "", params: { op: "add", to: [9, 10], flag: true, obj: { a: 1 }, x: 5 } });
    assert.deepEqual(await params("POST", { form: { op: "remove", to: [7], flag: false, x: -3 } }), { op: "remove", to: [7], flag: false, x: -3 });
  });

  it("reads GET parameters from the query string", async () => {
    assert.deepEqual(await params("GET", { query: { op: "add", to: [1, 2], flag: true } }), { op: "add", to: [1, 2], flag: true });
  });

  it("reads parameters from the query string for POST, PATCH and DELETE too (zulip-js sends PATCH/DELETE that way)", async () => {
    for (const method of ["POST", "PATCH", "DELETE"] as const) {
      assert.deepEqual(await params(method, { query: { op: "add", to: [4] } }), { op: "add", to: [4] }, method);
    }
  });

  it("lets the body win over the query string on a name clash, and merges the rest", async () => {
    assert.deepEqual(await params("PATCH", { query: { op: "add", x: 1 }, form: { op: "remove", to: [2] } }), { op: "remove", x: 1, to: [2] });
  });

  it("takes the last value of a repeated name, as Django's QueryDict does", async () => {
    assert.deepEqual(await params("POST", { form: "op=remove&op=add&x=1&x=2" }), { op: "add", x: 2 });
  });

  it("accepts an older alias (subject for topic)", async () => {
    assert.deepEqual(await params("POST", { form: { op: "add", subject: "lunch" } }), { op: "add", topic: "lunch" });
  });

  it("reads multipart/form-data bodies as zulip-js posts them, ignoring file parts", async () => {
    const form = new FormData();
    form.set("op", "add");
    form.set("to", "[3, 4]");
    form.set("name", "Zoë 🎉");
    form.set("attachment", new Blob(["file bytes"]), "a.txt");
    const res = await call("POST", { multipart: form });
    assert.deepEqual(res.body, { result: "success", msg: "", params: { op: "add", to: [3, 4], name: "Zoë 🎉" } });
  });

  it("reads JSON bodies, re-encoding lists, numbers, booleans and objects as a form would carry them", async () => {
    const res = await call("POST", { json: { op: "add", to: [1, 2], x: 9, flag: false, obj: { a: 3, b: "c" }, extra: null } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.params, { op: "add", to: [1, 2], x: 9, flag: false, obj: { a: 3, b: "c" } });
    assert.deepEqual(res.body.ignored_parameters_unsupported, ["extra"]);
  });

  it("ignores bodies of unknown content types, still reading the query string", async () => {
    const res = await call("POST", { query: "op=add", raw: { contentType: "text/plain", body: "op=remove&x=1" } });
    assert.deepEqual(res.body, { result: "success", msg: "", params: { op: "add" } });
    const binary = await call("POST", { query: "op=remove", raw: { contentType: "application/octet-stream", body: Buffer.from([0, 1, 2]) } });
    assert.deepEqual(binary.body.params, { op: "remove" });
  });

  it("carries UTF-8 names and values intact, in the body and the query", async () => {
    const res = await call("POST", { query: { "ключ": "значение" }, form: { op: "add", name: "日本語 – ünïcödé 👋", "naïve": "1" } });
    assert.equal(res.status, 200);
    assert.equal(res.body.params.name, "日本語 – ünïcödé 👋");
    assert.deepEqual(res.body.ignored_parameters_unsupported, ["ключ", "naïve"]);
  });

  it("lists unsupported parameters in ignored_parameters_unsupported, and omits the field when there are none", async () => {
    const res = await call("POST", { query: { zz: 1 }, form: { op: "add", yy: "2", subject: "t" } });
    assert.deepEqual(res.body.ignored_parameters_unsupported, ["zz", "yy"]);
    assert.equal(res.body.params.topic, "t");
    const clean = await call("POST", { form: { op: "add" } });
    assert.equal("ignored_parameters_unsupported" in clean.body, false);
  });

  it("parses path parameters and never reports them as ignored", async () => {
    const res = await send(h.app, "GET", "/things/42");
    assert.deepEqual(res.body, { result: "success", msg: "", params: { thing_id: 42 } });
    // A non-integer where the URL wants one names no endpoint, as with Zulip's <int:…> routes.
    const bad = await send(h.app, "GET", "/things/abc");
    assert.equal(bad.status, 404);
    assert.deepEqual(bad.body, { result: "error", msg: "Not Found", code: "BAD_REQUEST" });
  });

  it("refuses NUL bytes and unpaired surrogates in any parameter, even escaped inside JSON, and a path holding one names nothing (found by fuzzing)", async () => {
    assertError(await call("POST", { form: { op: "add", name: "a\u0000b" } }), "REQUEST_VARIABLE_INVALID", "name must not contain null bytes");
    assertError(await call("POST", { form: "op=add&topic=%00" }), "REQUEST_VARIABLE_INVALID", "topic must not contain null bytes");
    assertError(await call("POST", { form: { op: "add", obj: { a: 1, b: "\u0000" } } }), "REQUEST_VARIABLE_INVALID", "obj must not contain null bytes");
    assertError(await call("POST", { json: { op: "add", name: "\u0000" } }), "REQUEST_VARIABLE_INVALID", "name must not contain null bytes");
    // Unpaired surrogates too: both stores would keep U+FFFD instead (found by fuzzing).
    assertError(await call("POST", { json: { op: "add", name: "a\ud800" } }), "REQUEST_VARIABLE_INVALID", "name must not contain unpaired surrogates");
    assertError(await call("POST", { form: { op: "add", obj: { a: 1, b: "\udfff" } } }), "REQUEST_VARIABLE_INVALID", "obj must not contain unpaired surrogates");
    assert.deepEqual((await call("POST", { json: { op: "add", name: "😀" } })).body.params.name, "😀");
    assert.equal((await send(h.app, "GET", "/names/a%00b")).status, 404);
    assert.deepEqual((await send(h.app, "GET", "/names/ab")).body.params, { name: "ab" });
  });

  it("reports a missing required parameter, naming it in var_name as Zulip's MissingArgumentError does", async () => {
    assertError(await call("POST", { form: { to: [1] } }), "REQUEST_VARIABLE_MISSING", "Missing 'op' argument", { var_name: "op" });
    assertError(await call("GET", {}), "REQUEST_VARIABLE_MISSING", "Missing 'op' argument", { var_name: "op" });
  });

  it("reports invalid values with Zulip's templates", async () => {
    assertError(await call("POST", { form: { op: "add", x: "abc" } }), "REQUEST_VARIABLE_INVALID", "x is not an integer");
    assertError(await call("POST", { form: { op: "add", x: "1.5" } }), "REQUEST_VARIABLE_INVALID", "x is not an integer");
    assertError(await call("POST", { form: { op: "add", x: "9".repeat(20) } }), "REQUEST_VARIABLE_INVALID", "x is too large");
    assertError(await call("POST", { form: { op: "add", to: [1, "x"] } }), "REQUEST_VARIABLE_INVALID", "to[1] is not an integer");
    assertError(await call("POST", { form: { op: "add", to: "5" } }), "REQUEST_VARIABLE_INVALID", "to is not a list");
    assertError(await call("POST", { form: { op: "bogus" } }), "REQUEST_VARIABLE_INVALID", "Invalid op");
    assertError(await call("POST", { form: { op: "add", flag: "1" } }), "REQUEST_VARIABLE_INVALID", "flag is not a boolean");
    assertError(await call("POST", { form: { op: "add", obj: [] } }), "REQUEST_VARIABLE_INVALID", "obj is not a dict");
    assertError(await call("POST", { form: { op: "add", obj: {} } }), "REQUEST_VARIABLE_INVALID", "obj key is missing: a");
    assertError(await call("POST", { form: { op: "add", obj: { a: 1, c: 2 } } }), "REQUEST_VARIABLE_INVALID", "Unexpected arguments: c");
    assertError(await call("POST", { form: { op: "add", obj: { a: "1" } } }), "REQUEST_VARIABLE_INVALID", 'obj["a"] is not an integer');
  });

  it("reports malformed JSON in a form value, and a malformed JSON body", async () => {
    assertError(await call("POST", { form: "op=add&to=%5B1%2C" }), "INVALID_JSON", 'Argument "to" is not valid JSON.');
    assertError(await call("POST", { form: { op: "add", flag: "yes" } }), "INVALID_JSON", 'Argument "flag" is not valid JSON.');
    assertError(await call("POST", { raw: { contentType: "application/json", body: "{not json" } }), "INVALID_JSON", "Malformed JSON");
  });

  it("refuses a JSON body nested too deep to re-encode as a form value, instead of failing with a 500 (found by fuzzing)", async () => {
    const depth = 100_000;
    const body = `{"op":"add","to":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    assertError(await call("POST", { raw: { contentType: "application/json", body } }), "INVALID_JSON", "Malformed JSON");
  });
});
