/**
 * Widgets from message text and the actions a submessage may carry (pure). The expected values
 * are what Zulip's zerver/lib/widget.py and validate_poll_data / validate_todo_data give for the
 * same input, written down here as data.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError } from "../../src/errors.js";
import { checkPollAction, checkTodoAction, declaredWidgetType } from "../../src/lib/widget-events.js";
import { pythonJsonDumps, widgetFromContent } from "../../src/lib/widgets.js";

describe("widgetFromContent", () => {
  it("reads a poll's question and options, dropping list markers and blank lines", () => {
    assert.deepEqual(widgetFromContent("/poll What for lunch?\n- Soup\n* Salad\n\n  Pasta al dente  \n-"), {
      widget_type: "poll",
      extra_data: { question: "What for lunch?", options: ["Soup", "Salad", "Pasta al dente"] },
    });
  });

  it("leaves the question empty when the command is alone on its line", () => {
    assert.deepEqual(widgetFromContent("/poll\nYes\nNo"), { widget_type: "poll", extra_data: { question: "", options: ["Yes", "No"] } });
    assert.deepEqual(widgetFromContent("/poll"), { widget_type: "poll", extra_data: { question: "", options: [] } });
  });

  it("splits a task from its description at the first ': '", () => {
    assert.deepEqual(widgetFromContent("/todo Release\nTag: on main: today\n- Announce\r\nCelebrate:now"), {
      widget_type: "todo",
      extra_data: {
        task_list_title: "Release",
        tasks: [
          { task: "Tag", desc: "on main: today" },
          { task: "Announce", desc: "" },
          { task: "Celebrate:now", desc: "" },
        ],
      },
    });
  });

  it("needs the command to be the whole first word", () => {
    for (const content of ["/polls are open", " /poll x", "hello /poll", "/Poll x", "/zform", "/todo-list"]) {
      assert.equal(widgetFromContent(content), null, content);
    }
    assert.equal(widgetFromContent("/poll\tTabbed?")?.widget_type, "poll");
  });
});

describe("pythonJsonDumps", () => {
  it("writes JSON as Python's json.dumps does by default", () => {
    assert.equal(
      pythonJsonDumps({ widget_type: "poll", extra_data: { question: "Café? 🍕", options: ["a\"b", "x"] } }),
      '{"widget_type": "poll", "extra_data": {"question": "Caf\\u00e9? \\ud83c\\udf55", "options": ["a\\"b", "x"]}}',
    );
    assert.equal(pythonJsonDumps({ list: [], n: 3, ok: true, none: null }), '{"list": [], "n": 3, "ok": true, "none": null}');
  });
});

function refusal(check: () => void): string {
  try {
    check();
  } catch (e) {
    assert.ok(e instanceof ApiError);
    assert.equal(e.code, "BAD_REQUEST");
    return e.message;
  }
  assert.fail("accepted");
}

describe("checkPollAction", () => {
  it("accepts votes, new options and, from the author, a new question", () => {
    checkPollAction({ type: "vote", key: "canned,0", vote: 1 }, false);
    checkPollAction({ type: "vote", key: "12,3", vote: -1 }, false);
    checkPollAction({ type: "new_option", option: "Tea", idx: 1000 }, false);
    checkPollAction({ type: "question", question: "Dinner?" }, true);
  });

  it("refuses malformed actions with Zulip's messages", () => {
    const cases: Array<[unknown, string]> = [
      [[1], "poll data is not a dict"],
      [{ key: "x" }, "type key is missing from poll data"],
      [{ type: 3 }, 'poll data["type"] is not a string'],
      [{ type: "vote", key: "canned,0", vote: 2 }, 'Invalid poll data["vote"]'],
      [{ type: "vote", key: "canned,0", vote: "1" }, 'poll data["vote"] is not an integer'],
      [{ type: "vote", vote: 1 }, "key key is missing from poll data"],
      [{ type: "vote", key: 5, vote: 1 }, 'poll data["key"] is not a string'],
      [{ type: "vote", key: "canned,0", vote: 1, extra: 1, more: 2 }, "Unexpected arguments: extra, more"],
      [{ type: "new_option", option: "Tea", idx: 1001 }, 'poll data["idx"] is too large'],
      [{ type: "new_option", option: "Tea", idx: -1 }, 'poll data["idx"] is too small'],
      [{ type: "new_option", option: "Tea", idx: 1.5 }, 'poll data["idx"] is not an integer'],
      [{ type: "close" }, "Unknown type for poll data: close"],
    ];
    for (const [data, message] of cases) assert.equal(refusal(() => checkPollAction(data, true)), message, JSON.stringify(data));
  });

  it("keeps the question to the poll's author", () => {
    assert.equal(refusal(() => checkPollAction({ type: "question", question: "Mine now" }, false)), "You can't edit a question unless you are the author.");
  });
});

describe("checkTodoAction", () => {
  it("accepts new tasks and strikes from anyone, a new title from the author", () => {
    checkTodoAction({ type: "new_task", key: 2, task: "Ship", desc: "", completed: false }, false);
    checkTodoAction({ type: "strike", key: "2,canned" }, false);
    checkTodoAction({ type: "new_task_list_title", title: "Chores" }, true);
  });

  it("refuses malformed actions with Zulip's messages", () => {
    const cases: Array<[unknown, boolean, string]> = [
      [{ type: "new_task", key: 2, task: "Ship", desc: "" }, true, "completed key is missing from todo data"],
      [{ type: "new_task", key: 2, task: "Ship", desc: "", completed: 0 }, true, 'todo data["completed"] is not a boolean'],
      [{ type: "strike", key: 2 }, true, 'todo data["key"] is not a string'],
      [{ type: "new_task_list_title", title: "Mine" }, false, "You can't edit the task list title unless you are the author."],
      ["strike", true, "todo data is not a dict"],
      [{ type: "delete" }, true, "Unknown type for todo data: delete"],
    ];
    for (const [data, author, message] of cases) assert.equal(refusal(() => checkTodoAction(data, author)), message, JSON.stringify(data));
  });
});

describe("declaredWidgetType", () => {
  it("reads widget_type from the widget submessage, null when absent or unreadable", () => {
    assert.equal(declaredWidgetType('{"widget_type": "poll", "extra_data": {}}'), "poll");
    assert.equal(declaredWidgetType(undefined), null);
    assert.equal(declaredWidgetType("not json"), null);
    assert.equal(declaredWidgetType("[]"), null);
  });
});
