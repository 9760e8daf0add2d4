/**
 * The compose box's typeahead (issue 20): `@` people, groups and wildcards, `#` channels and
 * `#**channel>` topics, `:` emoji, completed from the client state (topics loaded on need, the
 * Unicode emoji data fetched the first time a `:` token appears). Returns what the textarea
 * needs: its ARIA attributes, key and caret handlers, and the list to render next to it.
 */
import type { RefObject } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { useClientState } from "../session";
import { useChannelTopics } from "../state/topics";
import { useAllEmoji } from "./emoji-data";
import { fieldAria, SuggestionList, useListNavigation } from "./suggestion-list";
import { applySuggestion, suggestionsFor, tokenAt, type CompletionSources, type Suggestion } from "./typeahead";

const LIST_ID = "compose-suggestions";

export function useComposeTypeahead(content: string, textarea: RefObject<HTMLTextAreaElement | null>, setContent: (value: string) => void) {
  const [caret, setCaret] = useState(content.length);
  const sources = useClientState((s) => ({ users: s.users, groups: s.userGroups, channels: s.channels }));
  // Text put in by code (a quote, an upload link, a restored draft) leaves the caret where the browser put it.
  useEffect(() => setCaret(textarea.current?.selectionStart ?? content.length), [content]);
  const token = useMemo(() => tokenAt(content, caret), [content, caret]);
  const channelNames = useMemo(() => [...sources.channels.values()].filter((c) => !c.is_archived).map((c) => c.name).sort((a, b) => a.localeCompare(b)), [sources.channels]);
  const topicChannel = token?.kind === "topic" ? [...sources.channels.values()].find((c) => c.name.toLowerCase() === token.channel?.toLowerCase()) : undefined;
  const topics = useChannelTopics(topicChannel?.stream_id ?? null);
  const emoji = useAllEmoji(token?.kind === "emoji");
  const emojiSources = useMemo(() => emoji.map((e) => ({ name: e.emoji_name, aliases: e.aliases, glyph: e.glyph })), [emoji]);

  const items = useMemo(() => {
    if (!token) return [];
    const all: CompletionSources = {
      users: [...sources.users.values()].filter((u) => !u.is_bot || token.query !== ""),
      groups: sources.groups,
      channels: channelNames,
      topics: topicChannel ? (topics ?? []).map((t) => t.name) : [],
      emoji: emojiSources,
    };
    return suggestionsFor(token, all);
  }, [token, sources.users, sources.groups, channelNames, topicChannel, topics, emojiSources]);
  const nav = useListNavigation(items, token ? `${token.kind}:${token.start}` : "");

  function pick(item: Suggestion) {
    if (!token) return;
    const next = applySuggestion(content, caret, token, item.insert);
    setContent(next.text);
    setCaret(next.caret);
    requestAnimationFrame(() => {
      const el = textarea.current;
      if (!el) return;
      el.focus();
      el.setSelectionRange(next.caret, next.caret);
    });
  }

  const trackCaret = (e: Event) => setCaret((e.currentTarget as HTMLTextAreaElement).selectionStart);
  return {
    aria: fieldAria(LIST_ID, nav),
    /** Call first in the textarea's keydown; true when the list used the key. */
    onKeyDown: (e: KeyboardEvent) => nav.onKeyDown(e, pick),
    trackCaret,
    list: <SuggestionList id={LIST_ID} label="Suggestions" items={items} nav={nav} onPick={pick} class="compose-suggestions" />,
  };
}
