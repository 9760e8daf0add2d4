/**
 * Markdown pieces of the messages the server writes itself (reminders, scheduling failures,
 * message reports), as Zulip writes them.
 */

/** Zulip's get_unused_fence: a run of backticks longer than any fence opening a line of the text. */
export function unusedFence(text: string): string {
  let longest = 2;
  for (const match of text.matchAll(/^ {0,3}(`{3,})/gm)) longest = Math.max(longest, match[1].length);
  return "`".repeat(longest + 1);
}

/** Zulip's datetime_to_global_time: `<time:…>` with the UTC time, which clients show in the reader's zone. */
export function globalTime(seconds: number): string {
  return `<time:${new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00")}>`;
}
