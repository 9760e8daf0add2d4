/**
 * Zulip's references to people (links to places, #**channel>topic**, are in channel-links.ts):
 *
 *   @**Full Name**, @**Full Name|12**, @**|12**   user mention (`@_**…**` silent)
 *   @**all** @**everyone** @**channel** @**stream**  channel-wide wildcard;  @**topic**  topic wildcard
 *   @*group name*                                 user-group mention (`@_*…*` silent)
 *
 * Each must start the text or follow whitespace or one of ' " ( { [ / <. Names that match nothing
 * in the realm are left alone (so `@**Nobody**` shows as "@" + bold "Nobody", as in Zulip).
 * Mentions inside a quote are always silent, so quoting a message does not re-notify anyone.
 */
import type { StateInline } from "markdown-it";
import { element, pushHtml } from "./html.js";
import type { MentionableUser, RenderEnv } from "./types.js";

const STREAM_WILDCARDS = new Set(["all", "everyone", "channel", "stream"]);
const TOPIC_WILDCARD = "topic";

export function startAllowed(src: string, pos: number): boolean {
  return pos === 0 || /[\s'"({[/<]/.test(src[pos - 1]);
}

/** Text between `open` (after `start`) and the next `close`, with no `*` inside. */
export function delimited(state: StateInline, start: number, close: string): { name: string; end: number } | null {
  const end = state.src.indexOf(close, start);
  if (end < 0 || end + close.length > state.posMax) return null;
  const name = state.src.slice(start, end);
  if (name === "" || name.includes("*")) return null;
  return { name, end: end + close.length };
}

function findUser(env: RenderEnv, name: string): MentionableUser | undefined {
  const withId = /^(.+)?\|(\d+)$/s.exec(name);
  if (withId) {
    const user = env.ctx.usersById.get(Number(withId[2]));
    // @**Name|id** must name the user with that id exactly; otherwise it mentions nobody.
    if (user && withId[1] !== undefined && withId[1] !== user.full_name) return undefined;
    return user;
  }
  const matches = env.ctx.usersByName.get(name.toLowerCase());
  // With several users of that name, only the |id form can say which one is meant.
  return matches && matches.length === 1 ? matches[0] : undefined;
}

/** A resolved mention: its markup, and what it does to the render result once emitted. */
interface Resolved {
  html: string;
  record: () => void;
}

function resolveUserMention(env: RenderEnv, name: string, silent: boolean): Resolved | null {
  const silentClass = silent ? " silent" : "";
  const shown = silent ? name : "@" + name;
  if (STREAM_WILDCARDS.has(name)) {
    return {
      html: element("span", [["class", "user-mention channel-wildcard-mention" + silentClass], ["data-user-id", "*"]], shown),
      record: () => {
        if (!silent) env.result.wildcard = "stream";
      },
    };
  }
  if (name === TOPIC_WILDCARD) {
    return {
      html: element("span", [["class", "topic-mention" + silentClass]], shown),
      record: () => {
        if (!silent && env.result.wildcard === null) env.result.wildcard = "topic";
      },
    };
  }
  const user = findUser(env, name);
  if (!user) return null;
  const quiet = silent || user.is_active === false;
  return {
    html: element(
      "span",
      [["class", "user-mention" + (quiet ? " silent" : "")], ["data-user-id", String(user.id)]],
      quiet ? user.full_name : "@" + user.full_name,
    ),
    record: () => {
      if (!quiet) env.result.mentionedUserIds.add(user.id);
    },
  };
}

function resolveGroupMention(env: RenderEnv, name: string, silent: boolean): Resolved | null {
  const group = env.ctx.groupsByName.get(name.toLowerCase());
  if (!group) return null;
  const quiet = silent || group.deactivated === true;
  return {
    html: element(
      "span",
      [["class", "user-group-mention" + (quiet ? " silent" : "")], ["data-user-group-id", String(group.id)]],
      quiet ? group.name : "@" + group.name,
    ),
    record: () => {
      if (!quiet) env.result.mentionedGroupIds.add(group.id);
    },
  };
}

export function mention(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (src[start] !== "@" || !startAllowed(src, start)) return false;
  let pos = start + 1;
  const silentSyntax = src[pos] === "_";
  if (silentSyntax) pos++;
  if (src[pos] !== "*") return false;
  const env = state.env as RenderEnv;
  const quiet = silentSyntax || env.inQuote;

  const isUser = src[pos + 1] === "*";
  const found = isUser ? delimited(state, pos + 2, "**") : delimited(state, pos + 1, "*");
  if (!found) return false;
  const resolved = isUser ? resolveUserMention(env, found.name, quiet) : resolveGroupMention(env, found.name, quiet);
  if (resolved === null) return false;
  if (!silent) {
    resolved.record();
    pushHtml(state, resolved.html);
  }
  state.pos = found.end;
  return true;
}
