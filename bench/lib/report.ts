/**
 * The benchmark's output: one row per scenario, printed as a table (with each row's details as a
 * note underneath) and written to bench/results.json as
 * `{scenario: {rps, p50_ms, p99_ms, ratio, target, pass, baseline, note, load_avg}}`.
 */
import { writeFileSync } from "node:fs";

export interface Row {
  id: string;
  rps: number | null;
  p50: number | null;
  p99: number | null;
  /** What the scenario is compared with, e.g. "B0 14,200 req/s". */
  baseline: string;
  ratio: number | null;
  target: string;
  /** null: reported only (no target), or skipped. */
  pass: boolean | null;
  note: string;
  /** 1-minute load average when the scenario ran. */
  load: number;
}

const num = (v: number | null, digits = 1) => (v === null || Number.isNaN(v) ? "-" : v.toFixed(digits));

export function formatInt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

function verdict(pass: boolean | null): string {
  return pass === null ? "-" : pass ? "PASS" : "FAIL";
}

export function printTable(rows: readonly Row[]): void {
  const header = ["scenario", "requests/s", "p50 ms", "p99 ms", "baseline", "ratio", "target", "result", "load"];
  const cells = rows.map((r) => [r.id, r.rps === null ? "-" : formatInt(r.rps), num(r.p50), num(r.p99), r.baseline, num(r.ratio, 2), r.target, verdict(r.pass), num(r.load, 1)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 || i >= 4 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join("  ");
  console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const c of cells) console.log(line(c));
  console.log("");
  for (const r of rows) if (r.note) console.log(`${r.id}: ${r.note}`);
}

export function writeResults(rows: readonly Row[], path: string): void {
  const out: Record<string, unknown> = {};
  for (const r of rows) {
    out[r.id] = { rps: r.rps, p50_ms: r.p50, p99_ms: r.p99, ratio: r.ratio, target: r.target, pass: r.pass, baseline: r.baseline, note: r.note, load_avg: r.load };
  }
  writeFileSync(path, JSON.stringify(out, null, 2) + "\n");
}
