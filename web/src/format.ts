/** Dates and names as the message view shows them, in the browser's locale. */

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });
const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: "short", month: "short", day: "numeric", year: "numeric" });
const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "medium" });

export const formatTime = (seconds: number) => timeFormat.format(new Date(seconds * 1000));
export const formatDay = (seconds: number) => dayFormat.format(new Date(seconds * 1000));
export const formatFull = (seconds: number) => fullFormat.format(new Date(seconds * 1000));

export function sameDay(a: number, b: number): boolean {
  return new Date(a * 1000).toDateString() === new Date(b * 1000).toDateString();
}

/** Zulip's emoji_code for a Unicode emoji is its code points in hex, joined by dashes. */
export function emojiFromCode(code: string): string {
  try {
    return String.fromCodePoint(...code.split("-").map((hex) => Number.parseInt(hex, 16)));
  } catch {
    return code;
  }
}

/** Initials for an avatar placeholder. */
export function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? "")
    .join("");
}

/** "A", "A and B", "A, B and 2 others" (typing indicators, reaction tooltips). */
export function listNames(names: string[], max = 3): string {
  if (names.length <= 1) return names.join("");
  if (names.length <= max) return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return `${names.slice(0, max - 1).join(", ")} and ${names.length - max + 1} others`;
}
