/**
 * S11: the web client's first load (issue 10: "first load to usable under 1 s on loopback"; issue 20
 * tightened it: "first load to messages under 300 ms on loopback"), as a
 * browser with an empty cache and stored credentials makes it: GET / (index.html), then every
 * script and style sheet the page links, in parallel over at most six connections (a browser's
 * limit per host), then POST /register with the client's own parameters, after which the client
 * renders. Timed from the first request to the last byte of the register, each round on new
 * connections, as the registrant of the big organisation (S8's). What a browser adds — parsing and
 * running the script, layout — is not measured. Skipped, with a note, when dist/web is not built.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { authHeaders, type Context } from "../lib/context.js";
import { HttpClient, quantile } from "../lib/http.js";
import { loadAverage } from "../lib/measure.js";
import { ROOT } from "../lib/processes.js";
import { formatInt, type Row } from "../lib/report.js";
import { ROLES, type BenchUser } from "../lib/seed.js";

const BROWSER_SOCKETS = 6;
const TARGET_MS = 300;
const WEB_INDEX = join(ROOT, "dist", "web", "index.html");

/** The client's REGISTER_PARAMS (web/src/api/events.ts; test/bench/first-load.test.ts keeps the two equal). */
export const WEB_REGISTER_PARAMS = {
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  include_subscribers: false,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: false,
    stream_typing_notifications: true,
    user_settings_object: true,
    linkifier_url_template: true,
    user_list_incomplete: false,
    include_deactivated_groups: true,
    archived_channels: true,
    simplified_presence_events: true,
  },
};

/** Same-origin scripts, style sheets and module preloads a page links: what loads before it runs. */
export function linkedAssets(html: string): string[] {
  const out: string[] = [];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    const url = /\b(?:src|href)="([^"]+)"/i.exec(tag)?.[1];
    if (!url || !url.startsWith("/") || url.startsWith("//")) continue;
    const isLink = /^<link/i.test(tag);
    if (isLink && !/\brel="(?:stylesheet|modulepreload)"/i.test(tag)) continue;
    out.push(url);
  }
  return [...new Set(out)];
}

interface Load {
  ms: number;
  files: number;
  bytes: number;
}

async function firstLoad(port: number, user: BenchUser): Promise<Load> {
  const http = new HttpClient(port, BROWSER_SOCKETS);
  try {
    const start = performance.now();
    const page = await http.getText("/");
    if (page.status !== 200) throw new Error(`GET /: ${page.status}`);
    const assets = linkedAssets(page.text);
    const files = await Promise.all(assets.map((path) => http.getText(path)));
    files.forEach((f, i) => {
      if (f.status !== 200) throw new Error(`GET ${assets[i]}: ${f.status}`);
    });
    const register = await http.call("POST", "/api/v1/register", WEB_REGISTER_PARAMS, { headers: authHeaders(user) });
    if (register.status !== 200) throw new Error(`register: ${register.status} ${JSON.stringify(register.body).slice(0, 200)}`);
    return { ms: register.at - start, files: 1 + assets.length, bytes: page.bytes + files.reduce((n, f) => n + f.bytes, 0) };
  } finally {
    http.close();
  }
}

export async function s11(ctx: Context): Promise<Row[]> {
  const row = { id: "S11", rps: null, ratio: null, target: `p50 < ${TARGET_MS} ms`, load: loadAverage() };
  if (!existsSync(WEB_INDEX)) {
    return [{ ...row, p50: null, p99: null, baseline: "-", pass: null, note: "skipped: the web client is not built (dist/web/index.html; npm run build)" }];
  }
  const user = ctx.org.users[ROLES.registrant];
  await firstLoad(ctx.big.parley.port, user); // warm-up: the server's first read of each file
  const loads: Load[] = [];
  for (let i = 0; i < ctx.opts.sizes.firstLoadRounds; i++) loads.push(await firstLoad(ctx.big.parley.port, user));
  const times = loads.map((l) => l.ms).sort((a, b) => a - b);
  const p50 = quantile(times, 0.5);
  const { files, bytes } = loads[0];
  return [
    {
      ...row,
      p50,
      p99: quantile(times, 0.99),
      baseline: `${files} files, ${formatInt(bytes / 1024)} KiB + register`,
      pass: p50 < TARGET_MS,
      note:
        `GET / and the ${files - 1} files it links (${formatInt(bytes / 1024)} KiB, uncompressed), then POST /register as a member of the ` +
        `${formatInt(ctx.opts.sizes.shape.users)}-user organisation, ${loads.length} cold loads one after another; script parsing and rendering not included`,
      load: loadAverage(),
    },
  ];
}
