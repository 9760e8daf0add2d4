/**
 * Times for "schedule send" and "remind me": the browser's datetime-local value (local wall clock,
 * `YYYY-MM-DDTHH:MM`) to and from the API's UNIX seconds, and the preset choices Zulip offers
 * (later today, tomorrow morning, next Monday morning).
 */

const pad = (n: number) => String(n).padStart(2, "0");

export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** UNIX seconds of a datetime-local value, or null when it is not a time. */
export function fromLocalInput(value: string): number | null {
  const ms = new Date(value).getTime();
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value) && Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

const at = (date: Date, days: number, hours: number) => {
  const d = new Date(date);
  d.setDate(d.getDate() + days);
  d.setHours(hours, 0, 0, 0);
  return d;
};

export interface TimePreset {
  label: string;
  date: Date;
}

export function timePresets(now = new Date()): TimePreset[] {
  const inAnHour = new Date(now.getTime() + 60 * 60 * 1000);
  inAnHour.setSeconds(0, 0);
  const daysToMonday = ((8 - now.getDay()) % 7) || 7;
  return [
    { label: "In 1 hour", date: inAnHour },
    { label: "Tomorrow at 9:00", date: at(now, 1, 9) },
    { label: "Monday at 9:00", date: at(now, daysToMonday, 9) },
  ];
}

const longFormat = new Intl.DateTimeFormat(undefined, { weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
export const formatWhen = (seconds: number) => longFormat.format(new Date(seconds * 1000));
