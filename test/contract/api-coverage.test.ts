/**
 * Issue 17's enumeration: every operation of Zulip's current REST API — each operationId of
 * ../shared/reference/zulip-openapi-current.yaml (FL 378) and each slug of Zulip's API index
 * (../shared/reference/zulip-rest-endpoints.md), the newer ones routed by api-catalogue.ts — is
 * either served by Parley (an endpoint of ENDPOINTS with its method and path shape) or listed in
 * api-catalogue.ts as deliberately absent with a reason, or as not yet built with its owner. A
 * served operation is exercised by the permission matrix (a sample request for each endpoint,
 * every answer held to the contract by the hooks of test/helpers/contract/). Skips visibly without
 * ../shared.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { parse } from "yaml";
import { ENDPOINTS } from "../../src/api/index.js";
import { OPENAPI_PATH } from "../helpers/contract/document.js";
import { pathShape } from "../helpers/contract/validator.js";
import { SAMPLES } from "../security/permission-samples.js";
import { DELIBERATELY_ABSENT, DOC_PAGES, NEWER_ROUTES, NOT_YET_BUILT } from "./api-catalogue.js";

const INDEX_PATH = resolve(process.cwd(), "../shared/reference/zulip-rest-endpoints.md");
const missing = [OPENAPI_PATH, INDEX_PATH].filter((p) => !existsSync(p));

/** The index's slugs: "- **Group**: slug, slug (note), …", an item running over indented lines. */
function indexSlugs(text: string): string[] {
  const items = text.split(/\n(?=- \*\*)/).filter((chunk) => chunk.startsWith("- **"));
  return items.flatMap((item) =>
    item
      .replace(/^- \*\*[^*]+\*\*:/, "")
      .replace(/\s+/g, " ")
      .split(",")
      .map((entry) => entry.trim().replace(/\s*\([^)]*\)$/, ""))
      .filter((slug) => /^[a-z0-9-]+$/.test(slug)),
  );
}

/** operationId → "METHOD /path" of the OpenAPI document. */
function documentRoutes(doc: { paths: Record<string, Record<string, { operationId?: string }>> }): Map<string, string> {
  const routes = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) if (op.operationId) routes.set(op.operationId, `${method.toUpperCase()} ${path}`);
  }
  return routes;
}

const shapeOf = (route: string) => {
  const [method, path] = route.split(" ");
  return `${method} ${pathShape(path)}`;
};

describe("Zulip's REST API, operation by operation", { skip: missing.length > 0 ? `${missing.join(" and ")} absent: nothing to enumerate` : false }, () => {
  const documented = missing.length > 0 ? new Map<string, string>() : documentRoutes(parse(readFileSync(OPENAPI_PATH, "utf8")));
  const indexed = missing.length > 0 ? [] : indexSlugs(readFileSync(INDEX_PATH, "utf8"));
  const served = new Map(ENDPOINTS.map((ep) => [shapeOf(`${ep.method} ${ep.path}`), `${ep.method} ${ep.path}`]));
  const operations = [...new Set([...documented.keys(), ...indexed.filter((slug) => !DOC_PAGES.has(slug))])].sort();
  const routeOf = (slug: string) => documented.get(slug) ?? NEWER_ROUTES[slug];

  it("reads both references and knows every operation's route", () => {
    assert.ok(documented.size > 100 && indexed.length > 150, `parsed ${documented.size} document operations and ${indexed.length} index entries`);
    assert.deepEqual(operations.filter((slug) => routeOf(slug) === undefined), [], "index slugs with no route: write it down in api-catalogue.ts NEWER_ROUTES");
    assert.deepEqual(Object.keys(NEWER_ROUTES).filter((slug) => documented.has(slug)), [], "NEWER_ROUTES entries the document already routes");
    assert.deepEqual(Object.keys(NEWER_ROUTES).filter((slug) => !indexed.includes(slug)), [], "NEWER_ROUTES entries the index does not name");
    assert.deepEqual([...DOC_PAGES].filter((slug) => !indexed.includes(slug)), [], "doc pages the index does not name");
  });

  it("serves each operation, or lists it as deliberately absent or not yet built", (t) => {
    const unaccounted: string[] = [];
    const stale: string[] = [];
    let servedCount = 0;
    for (const slug of operations) {
      const route = routeOf(slug)!;
      const listed = slug in DELIBERATELY_ABSENT ? "deliberately absent" : slug in NOT_YET_BUILT ? "not yet built" : null;
      if (served.has(shapeOf(route))) {
        servedCount++;
        if (listed) stale.push(`${slug} (${route}) is served: take it off the ${listed} list`);
      } else if (!listed) {
        unaccounted.push(`${slug} (${route})`);
      }
    }
    for (const slug of [...Object.keys(DELIBERATELY_ABSENT), ...Object.keys(NOT_YET_BUILT)]) {
      if (!operations.includes(slug)) stale.push(`${slug} is listed but is no operation of either reference`);
    }
    const absent = Object.keys(DELIBERATELY_ABSENT).length;
    const pending = Object.keys(NOT_YET_BUILT).length;
    t.diagnostic(
      `${operations.length} operations (${documented.size} in the FL 378 document, ${operations.length - documented.size} more in the index; ${DOC_PAGES.size} doc pages left out): ` +
        `${servedCount} served, ${absent} deliberately absent, ${pending} not yet built`,
    );
    for (const [slug, owner] of Object.entries(NOT_YET_BUILT)) t.diagnostic(`not yet built: ${slug} (${routeOf(slug)}) — ${owner}`);
    const extras = [...served.values()].filter((route) => ![...operations].some((slug) => shapeOf(routeOf(slug)!) === shapeOf(route)));
    t.diagnostic(`${extras.length} Parley routes beyond both references (legacy aliases and forms): ${extras.join(", ")}`);
    assert.deepEqual(unaccounted, [], "operations neither served nor listed in api-catalogue.ts");
    assert.deepEqual(stale, [], "api-catalogue.ts entries to update");
    assert.equal(servedCount + absent + pending, operations.length);
  });

  it("exercises every served operation in the permission matrix, whose answers the contract checks", () => {
    const sampled = new Set(Object.keys(SAMPLES));
    assert.deepEqual(ENDPOINTS.map((ep) => `${ep.method} ${ep.path}`).filter((key) => !sampled.has(key)), []);
  });
});
