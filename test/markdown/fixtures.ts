/** Realm data shaped like Zulip's development/test realm, which its Markdown test cases assume. */
import { buildMarkdownContext, type MarkdownContext } from "../../src/markdown/index.js";

export const REALM_URL = "http://zulip.testserver";

export const USERS = [
  { id: 7, full_name: "Zoe", email: "ZOE@zulip.com" },
  { id: 8, full_name: "Othello, the Moor of Venice", email: "othello@zulip.com" },
  { id: 9, full_name: "Iago", email: "iago@zulip.com" },
  { id: 10, full_name: "King Hamlet", email: "hamlet@zulip.com" },
  { id: 11, full_name: "Cordelia, Lear's daughter", email: "cordelia@zulip.com" },
  { id: 12, full_name: "aaron", email: "AARON@zulip.com" },
  { id: 13, full_name: "Polonius", email: "polonius@zulip.com", is_active: false },
];

export const GROUPS = [
  { id: 20, name: "hamletcharacters" },
  { id: 21, name: "support" },
  { id: 22, name: "old team", deactivated: true },
];

export const CHANNELS = [
  { id: 1, name: "Denmark" },
  { id: 2, name: "Scotland" },
  { id: 3, name: "Verona" },
  { id: 13, name: "social" },
];

export const LINKIFIERS = [{ id: 1, pattern: "#(?P<id>[0-9]{2,8})", url_template: "https://trac.example.com/ticket/{id}" }];

export const REALM_EMOJI = [
  { id: "1", name: "green_tick", source_url: "/user_avatars/2/emoji/images/1.png", deactivated: false },
  { id: "2", name: "retired", source_url: "/user_avatars/2/emoji/images/2.png", deactivated: true },
];

export function fixtureContext(extra: { translateEmoticons?: boolean } = {}): MarkdownContext {
  return buildMarkdownContext({
    realmUrl: REALM_URL,
    users: USERS,
    groups: GROUPS,
    channels: CHANNELS,
    realmEmoji: REALM_EMOJI,
    linkifiers: LINKIFIERS,
    ...extra,
  });
}
