/**
 * The `anchor` of GET /messages and POST /messages/flags/narrow (spec 4.8): a message id (negative
 * means 0, huge means "newest"), `newest`, `oldest`, `first_unread`, or `date` with `anchor_date`.
 */
import { ApiError, invalidParam, missingParam } from "../errors.js";

/** Zulip's LARGER_THAN_MAX_MESSAGE_ID: the anchor value standing for "newest". */
export const NEWEST_ANCHOR = 10_000_000_000_000_000;

export type Anchor = { type: "id"; id: number } | { type: "first_unread" } | { type: "date"; since: number };

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO 8601 date or datetime as UTC seconds, rounded up to a whole second: a date alone means
 * 00:00 UTC and a datetime without a zone is UTC.
 */
export function parseAnchorDate(text: string): number {
  const m = ISO.exec(text.trim());
  if (!m) throw invalidParam("anchor_date is not a valid datetime");
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((x) => Number(x ?? 0));
  const ms = Date.UTC(year, month - 1, day, hour, minute, second) + Number((m[7] ?? "0").padEnd(3, "0").slice(0, 3));
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    throw invalidParam("anchor_date is not a valid datetime");
  }
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone && zone !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    offsetMinutes = (zone[0] === "-" ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  return Math.ceil((ms - offsetMinutes * 60_000) / 1000);
}

/** Parses the `anchor` parameter; `anchorDate` is required when it is `date`. */
export function parseAnchor(value: string, anchorDate: string | undefined): Anchor {
  switch (value) {
    case "newest":
      return { type: "id", id: NEWEST_ANCHOR };
    case "oldest":
      return { type: "id", id: 0 };
    case "first_unread":
      return { type: "first_unread" };
    case "date":
      if (anchorDate === undefined) throw missingParam("anchor_date");
      return { type: "date", since: parseAnchorDate(anchorDate) };
  }
  if (!/^-?\d+$/.test(value.trim())) throw new ApiError("Invalid anchor");
  const id = Number(value.trim());
  return { type: "id", id: id < 0 ? 0 : Math.min(id, NEWEST_ANCHOR) };
}
