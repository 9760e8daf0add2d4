/**
 * The web client's desktop notifier (web/src/api/desktop-notifier.ts) judges each message by the
 * state as of that message, not by the state after the whole poll: a mention auto-follows its
 * topic, and when the plain message before it arrived in the same poll as that user_topic event,
 * it was notified as if the topic had been followed already (a random failure of
 * test/web/people-e2e.test.ts).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startDesktopNotifier } from "../../../web/src/api/desktop-notifier";
import { applyEvent } from "../../../web/src/state/apply-event";
import { stateFromRegister, type ClientState } from "../../../web/src/state/client-state";
import type { Message, RegisterResponse, ServerEvent } from "../../../web/src/state/types";

const ME = 10;
const OTHER = 11;

function register(): ClientState {
  const response = {
    queue_id: "q1",
    last_event_id: -1,
    user_id: ME,
    realm_users: [ME, OTHER].map((id) => ({ user_id: id, email: `u${id}@x.test`, full_name: `User ${id}`, role: 400, is_active: true, is_bot: false })),
    subscriptions: [{ stream_id: 1, name: "ops", description: "", invite_only: false, color: "#c2c2c2", is_muted: false, pin_to_top: false }],
    unsubscribed: [],
    never_subscribed: [],
    unread_msgs: { count: 0, streams: [], pms: [], huddles: [], mentions: [], old_unreads_missing: false },
    starred_messages: [],
    recent_private_conversations: [],
    user_topics: [],
    user_settings: { enable_desktop_notifications: true, enable_stream_desktop_notifications: false, enable_followed_topic_desktop_notifications: true },
    realm_name: "Acme",
  } as unknown as RegisterResponse;
  return stateFromRegister(response);
}

let nextId = 0;
const message = (id: number, content: string, flags: string[] = []): ServerEvent =>
  ({
    id: ++nextId,
    type: "message",
    flags,
    message: { id, sender_id: OTHER, sender_email: "u11@x.test", sender_full_name: "User 11", type: "stream", stream_id: 1, subject: "plain", display_recipient: "ops", content: `<p>${content}</p>`, timestamp: 1, reactions: [], flags } as Message,
  }) as unknown as ServerEvent;
const follow = (): ServerEvent => ({ id: ++nextId, type: "user_topic", stream_id: 1, topic_name: "plain", visibility_policy: 3, last_updated: 1 }) as unknown as ServerEvent;

/** What a browser offers the notifier: a granted Notification API that records what it shows. */
const shown: string[] = [];
class StubNotification {
  static permission = "granted";
  onclick: (() => void) | null = null;
  constructor(title: string, options: { body: string }) {
    shown.push(`${title}: ${options.body}`);
  }
  close(): void {}
}
const globals = globalThis as Record<string, unknown>;
const saved = { window: globals.window, document: globals.document, DOMParser: globals.DOMParser };

/** Runs one poll's events through the notifier as the session does (session.tsx). */
function poll(start: ClientState, events: ServerEvent[]): void {
  let deliver: ((events: ServerEvent[], statesAfter: readonly ClientState[]) => void) | undefined;
  const stop = startDesktopNotifier({ onEvents: (listener) => ((deliver = listener), () => undefined) });
  let state = start;
  const statesAfter = events.map((event) => (state = applyEvent(state, event)));
  deliver!(events, statesAfter);
  stop();
}

describe("desktop notifications, one poll at a time", () => {
  before(() => {
    globals.window = { Notification: StubNotification, focus: () => undefined, location: { hash: "" } };
    globals.document = { visibilityState: "hidden", hasFocus: () => false };
    globals.DOMParser = class {
      parseFromString(html: string) {
        return { body: { textContent: html.replace(/<[^>]+>/g, "") } };
      }
    };
  });
  after(() => Object.assign(globals, saved));

  it("judges a plain message by the state it arrived in, though the next event follows its topic", () => {
    shown.length = 0;
    poll(register(), [message(1, "no mention here"), message(2, "@User 10 please look", ["mentioned"]), follow()]);
    assert.deepEqual(shown, ["User 11 (#ops > plain): @User 10 please look"]);
  });

  it("notifies a message in a topic followed earlier in the same poll", () => {
    shown.length = 0;
    poll(register(), [follow(), message(3, "in a followed topic")]);
    assert.deepEqual(shown, ["User 11 (#ops > plain): in a followed topic"]);
  });
});
