/**
 * What a submessage may say to a poll or a to-do list (Zulip's validate_poll_data and
 * validate_todo_data in zerver/lib/validator.py, read for behaviour): each is a JSON object whose
 * `type` names the action and which has exactly that action's keys. Messages are Zulip's words
 * (check_dict, check_int_range…), answered as 400 BAD_REQUEST. Pure.
 */
import { ApiError } from "../errors.js";

/** Zulip's MAX_IDX: the highest option or task number a client may claim. */
export const MAX_WIDGET_IDX = 1000;

type Check = (value: unknown, name: string) => void;

const fail = (message: string) => new ApiError(message);

const isDict = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

const checkString: Check = (v, name) => {
  if (typeof v !== "string") throw fail(`${name} is not a string`);
};

/** Python's isinstance(v, int): booleans are integers there, so `true` passes as 1. */
function asInt(v: unknown, name: string): number {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v !== "number" || !Number.isInteger(v)) throw fail(`${name} is not an integer`);
  return v;
}

const checkBool: Check = (v, name) => {
  if (typeof v !== "boolean") throw fail(`${name} is not a boolean`);
};

const intIn =
  (allowed: readonly number[]): Check =>
  (v, name) => {
    if (!allowed.includes(asInt(v, name))) throw fail(`Invalid ${name}`);
  };

const intRange =
  (low: number, high: number): Check =>
  (v, name) => {
    const n = asInt(v, name);
    if (n < low) throw fail(`${name} is too small`);
    if (n > high) throw fail(`${name} is too large`);
  };

/** check_dict_only: every listed key present and valid, in order, then no other key. */
function checkOnly(data: Record<string, unknown>, what: string, keys: ReadonlyArray<[string, Check]>): void {
  for (const [key, check] of keys) {
    if (!(key in data)) throw fail(`${key} key is missing from ${what}`);
    check(data[key], `${what}["${key}"]`);
  }
  const listed = new Set(keys.map(([key]) => key));
  const extra = Object.keys(data).filter((key) => !listed.has(key));
  if (extra.length > 0) throw fail(`Unexpected arguments: ${extra.join(", ")}`);
}

/** The action's `type`, after checking the data is an object with a string `type`. */
function actionType(data: unknown, what: string): { dict: Record<string, unknown>; type: string } {
  if (!isDict(data)) throw fail(`${what} is not a dict`);
  if (!("type" in data)) throw fail(`type key is missing from ${what}`);
  checkString(data.type, `${what}["type"]`);
  return { dict: data, type: data.type as string };
}

/** A poll action: anyone may vote or add an option; only the poll's author may change the question. */
export function checkPollAction(data: unknown, isWidgetAuthor: boolean): void {
  const what = "poll data";
  const { dict, type } = actionType(data, what);
  switch (type) {
    case "vote":
      return checkOnly(dict, what, [["type", checkString], ["key", checkString], ["vote", intIn([1, -1])]]);
    case "question":
      if (!isWidgetAuthor) throw fail("You can't edit a question unless you are the author.");
      return checkOnly(dict, what, [["type", checkString], ["question", checkString]]);
    case "new_option":
      return checkOnly(dict, what, [["type", checkString], ["option", checkString], ["idx", intRange(0, MAX_WIDGET_IDX)]]);
    default:
      throw fail(`Unknown type for poll data: ${type}`);
  }
}

/** A to-do action: anyone may add or strike a task; only the author may retitle the list. */
export function checkTodoAction(data: unknown, isWidgetAuthor: boolean): void {
  const what = "todo data";
  const { dict, type } = actionType(data, what);
  switch (type) {
    case "new_task":
      return checkOnly(dict, what, [
        ["type", checkString],
        ["key", intRange(0, MAX_WIDGET_IDX)],
        ["task", checkString],
        ["desc", checkString],
        ["completed", checkBool],
      ]);
    case "strike":
      return checkOnly(dict, what, [["type", checkString], ["key", checkString]]);
    case "new_task_list_title":
      if (!isWidgetAuthor) throw fail("You can't edit the task list title unless you are the author.");
      return checkOnly(dict, what, [["type", checkString], ["title", checkString]]);
    default:
      throw fail(`Unknown type for todo data: ${type}`);
  }
}

/** The widget type a message's first "widget" submessage declares, or null (Zulip's get_widget_type). */
export function declaredWidgetType(widgetSubmessageContent: string | undefined): string | null {
  if (widgetSubmessageContent === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(widgetSubmessageContent);
    return isDict(parsed) && typeof parsed.widget_type === "string" ? parsed.widget_type : null;
  } catch {
    return null;
  }
}
