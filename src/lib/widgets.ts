/**
 * Widgets made from a message's text (Zulip's zerver/lib/widget.py, read for behaviour): a
 * message whose first word is `/poll` or `/todo` becomes a widget, and its first submessage
 * (msg_type "widget") carries `{"widget_type", "extra_data"}` built from the rest of the text.
 * Pure: no I/O.
 */

export type WidgetType = "poll" | "todo";

export interface PollExtraData {
  question: string;
  options: string[];
}

export interface TodoExtraData {
  task_list_title: string;
  tasks: Array<{ task: string; desc: string }>;
}

export interface WidgetContent {
  widget_type: WidgetType;
  extra_data: PollExtraData | TodoExtraData;
}

/** Python's str.isspace() set: JS's \s without U+FEFF, plus U+001C–U+001F and U+0085. */
const PY_SPACE = "[^\\S\\uFEFF]|[\\u001C-\\u001F\\u0085]";
const LEADING_SPACE = new RegExp(`^(?:${PY_SPACE})+`);
const TRAILING_SPACE = new RegExp(`(?:${PY_SPACE})+$`);
const FIRST_WORD_END = new RegExp(`(?:${PY_SPACE})`);
/** The line boundaries of Python's str.splitlines(). */
// eslint-disable-next-line no-control-regex -- Python counts the file/group/record separators as line breaks
const LINE_BREAK = /\r\n|[\n\r\v\f\u001C-\u001E\u0085\u2028\u2029]/;
/** A list marker some people type before an option or task ("- x", "* x"). */
const LIST_MARKER = new RegExp(`^[-*]?(?:${PY_SPACE})*`);

const pyStrip = (s: string) => s.replace(LEADING_SPACE, "").replace(TRAILING_SPACE, "");

function pySplitLines(s: string): string[] {
  if (s === "") return [];
  const lines = s.split(LINE_BREAK);
  // A trailing line break ends the last line rather than starting an empty one.
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The first line, when not empty, is the title; each other non-empty line is an item. */
function titleAndItems(text: string): { title: string; items: string[] } {
  const lines = pySplitLines(text);
  let title = "";
  if (lines.length > 0 && lines[0] !== "") title = pyStrip(lines.shift() as string);
  const items = lines.map((line) => pyStrip(line).replace(LIST_MARKER, "")).filter((item) => item.length > 0);
  return { title, items };
}

function pollData(text: string): PollExtraData {
  const { title, items } = titleAndItems(text);
  return { question: title, options: items };
}

function todoData(text: string): TodoExtraData {
  const { title, items } = titleAndItems(text);
  const tasks = items.map((item) => {
    // A task and its optional description are separated by the first ": ".
    const at = item.indexOf(": ");
    return at < 0 ? { task: pyStrip(item), desc: "" } : { task: pyStrip(item.slice(0, at)), desc: pyStrip(item.slice(at + 2)) };
  });
  return { task_list_title: title, tasks };
}

/** The widget a message's content starts, or null: the first word must be exactly `/poll` or `/todo`. */
export function widgetFromContent(content: string): WidgetContent | null {
  const end = content.search(FIRST_WORD_END);
  const firstWord = end < 0 ? content : content.slice(0, end);
  const rest = content.slice(firstWord.length);
  if (firstWord === "/poll") return { widget_type: "poll", extra_data: pollData(rest) };
  if (firstWord === "/todo") return { widget_type: "todo", extra_data: todoData(rest) };
  return null;
}

/**
 * JSON as Python's json.dumps writes it by default (", " and ": " separators, non-ASCII escaped),
 * which is how Zulip stores a widget's first submessage; clients parse it either way, but the
 * stored text then matches what a Zulip server would hold.
 */
export function pythonJsonDumps(value: unknown): string {
  if (typeof value === "string") {
    return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
  }
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`);
    return `{${entries.join(", ")}}`;
  }
  return JSON.stringify(value);
}
