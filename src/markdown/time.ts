/**
 * Global times, `<time:…>`: Zulip parses the text with a lenient date parser and renders
 * `<time datetime="2017-06-05T22:30:00Z">original text</time>`, which clients show in each
 * reader's timezone. Text it cannot parse stays as typed, `<time:…>` as escaped plain text (since
 * feature level 451; before, `<span class="timestamp-error">Invalid time format: …</span>`).
 *
 * We accept what Zulip's composer produces and what people type: ISO 8601 (with or without
 * offset), a Unix timestamp, or a date written with a month name ("Jun 5th 2017, 10:30PM",
 * "31 Dec 2017 5:30 am IST"). A time without a zone is UTC.
 */
import type { StateInline } from "markdown-it";
import { element, pushHtml } from "./html.js";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAYS = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*$/;
const FILLER = new Set(["at", "on", "of", "the"]);

/** Offsets in minutes of the zone abbreviations people commonly write. */
const ZONES: Record<string, number> = {
  utc: 0, gmt: 0, z: 0, ut: 0,
  est: -300, edt: -240, cst: -360, cdt: -300, mst: -420, mdt: -360, pst: -480, pdt: -420,
  akst: -540, akdt: -480, hst: -600,
  bst: 60, ist: 330, cet: 60, cest: 120, eet: 120, eest: 180, wet: 0, west: 60,
  msk: 180, pkt: 300, sgt: 480, hkt: 480, jst: 540, kst: 540,
  aest: 600, aedt: 660, acst: 570, awst: 480, nzst: 720, nzdt: 780,
};

// Python's datetime range, which bounds what Zulip accepts. (Date.UTC maps years 0-99 to 19xx.)
const MIN_MS = new Date(0).setUTCFullYear(1, 0, 1);
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

function utcMillis(y: number, mo: number, d: number, h: number, mi: number, s: number, offsetMin: number): number | null {
  if (mo < 0 || mo > 11 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  if (Math.abs(offsetMin) >= 24 * 60) return null;
  const date = new Date(0);
  date.setUTCFullYear(y, mo, d);
  date.setUTCHours(h, mi, s, 0);
  if (date.getUTCDate() !== d) return null; // e.g. 31 Feb
  const ms = date.getTime() - offsetMin * 60_000;
  return ms < MIN_MS || ms > MAX_MS ? null : ms;
}

function parseOffset(text: string): number {
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(text);
  if (!m) return 0;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

function parseIso(text: string): number | null | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(text);
  if (!m) return undefined;
  const offset = m[7] && m[7].toUpperCase() !== "Z" ? parseOffset(m[7]) : 0;
  return utcMillis(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), offset);
}

function parseWords(text: string): number | null {
  let year: number | undefined, month: number | undefined, day: number | undefined;
  let hour = 0, minute = 0, second = 0, offset = 0;
  let meridiem: string | undefined;
  const tokens = text.toLowerCase().match(/\d{1,2}:\d{2}(?::\d{2})?|[a-z]+|\d+|[+-]\d{2}:?\d{2}/g) ?? [];
  for (const tok of tokens) {
    if (/^\d{1,2}:\d{2}/.test(tok)) {
      [hour, minute, second = 0] = tok.split(":").map(Number);
    } else if (/^[+-]/.test(tok)) {
      offset = parseOffset(tok);
    } else if (/^\d+$/.test(tok)) {
      const n = Number(tok);
      if (tok.length === 4) year = n;
      else if (day === undefined && n >= 1 && n <= 31) day = n;
      else return null;
    } else if (tok === "am" || tok === "pm") {
      meridiem = tok;
    } else if (tok === "st" || tok === "nd" || tok === "rd" || tok === "th") {
      continue; // ordinal suffix, split from its number by the tokenizer
    } else if (MONTHS.includes(tok.slice(0, 3)) && month === undefined && tok.length >= 3) {
      month = MONTHS.indexOf(tok.slice(0, 3));
    } else if (tok in ZONES) {
      offset = ZONES[tok];
    } else if (!WEEKDAYS.test(tok) && !FILLER.has(tok)) {
      return null;
    }
  }
  if (year === undefined || month === undefined || day === undefined) return null;
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === "pm" ? 12 : 0);
  }
  return utcMillis(year, month, day, hour, minute, second, offset);
}

/** Milliseconds since the epoch, or null when the text is not a time we understand. */
export function parseGlobalTime(text: string): number | null {
  const trimmed = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) {
    const ms = Number(trimmed) * 1000;
    return ms < MIN_MS || ms > MAX_MS ? null : ms;
  }
  const iso = parseIso(trimmed);
  if (iso !== undefined) return iso;
  return parseWords(trimmed);
}

export function formatUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** `<time:…>` where the body runs to the first `>`. */
export function globalTime(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (!state.src.startsWith("<time:", start)) return false;
  const close = state.src.indexOf(">", start + 6);
  if (close < 0 || close >= state.posMax) return false;
  if (!silent) {
    const body = state.src.slice(start + 6, close);
    const ms = parseGlobalTime(body);
    if (ms === null) {
      // Literal text, not parsed further: what the user typed is what readers see.
      state.push("text", "", 0).content = state.src.slice(start, close + 1);
    } else {
      pushHtml(state, element("time", [["datetime", formatUtc(ms)]], body));
    }
  }
  state.pos = close + 1;
  return true;
}
