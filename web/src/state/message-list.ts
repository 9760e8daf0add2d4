/**
 * The messages of the open narrow: a first page around the anchor (GET /messages), more pages
 * as the reader scrolls either way (anchored on the oldest or newest message held), and live
 * changes from events (message-list-events.ts). A new queue after a reconnect reloads the page,
 * since events may have been missed in between.
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { apiNarrow, channelName } from "../narrow";
import type { Narrow } from "../router";
import { useClientState, useServerEvents, useSession } from "../session";
import { mutedInFeed } from "./client-state";
import { applyEventToList } from "./message-list-events";
import type { Message } from "./types";

const PAGE = 50;

interface MessagesResponse {
  messages: Message[];
  found_oldest: boolean;
  found_newest: boolean;
  anchor: number;
}

export interface MessageListState {
  messages: Message[];
  foundOldest: boolean;
  foundNewest: boolean;
  loading: "initial" | "older" | "newer" | null;
  error: string | null;
  /** The message to scroll to after the first page (the first unread), or null for the bottom. */
  scrollTarget: number | null;
}

const EMPTY: MessageListState = { messages: [], foundOldest: false, foundNewest: false, loading: "initial", error: null, scrollTarget: null };

/** Search-like narrows open at the newest match; conversations at the first unread message. */
function initialAnchor(narrow: Narrow): string {
  return narrow.kind === "search" || narrow.kind === "starred" || narrow.kind === "mentions" ? "newest" : "first_unread";
}

export function useMessageList(narrow: Narrow, narrowKey: string) {
  const session = useSession();
  const queueId = useClientState((s) => s.register.queue_id);
  const [list, setList] = useState<MessageListState>(EMPTY);
  const current = useRef(list);
  current.current = list;
  const generation = useRef(0);

  const fetchPage = useCallback(
    (anchor: string | number, before: number, after: number) =>
      session.api.get<MessagesResponse>("/messages", {
        anchor,
        num_before: before,
        num_after: after,
        include_anchor: typeof anchor === "string",
        narrow: apiNarrow(narrow),
        apply_markdown: true,
        client_gravatar: false,
      }),
    // narrowKey identifies the narrow; the object itself is rebuilt on every route change.
    [session, narrowKey],
  );

  useEffect(() => {
    const mine = ++generation.current;
    setList(EMPTY);
    fetchPage(initialAnchor(narrow), PAGE, PAGE)
      .then((page) => {
        if (mine !== generation.current) return;
        const firstUnread = page.messages.find((m) => !m.flags.includes("read"));
        const scrollTarget = initialAnchor(narrow) === "first_unread" && firstUnread ? firstUnread.id : null;
        setList({ messages: page.messages, foundOldest: page.found_oldest, foundNewest: page.found_newest, loading: null, error: null, scrollTarget });
      })
      .catch((e: unknown) => {
        if (mine === generation.current) setList({ ...EMPTY, loading: null, error: e instanceof Error ? e.message : String(e) });
      });
  }, [fetchPage, queueId]);

  const loadMore = useCallback(
    async (direction: "older" | "newer") => {
      const state = current.current;
      if (state.loading || state.messages.length === 0) return;
      if (direction === "older" ? state.foundOldest : state.foundNewest) return;
      const mine = generation.current;
      setList((s) => ({ ...s, loading: direction }));
      const edge = direction === "older" ? state.messages[0].id : state.messages[state.messages.length - 1].id;
      try {
        const page = await fetchPage(edge, direction === "older" ? PAGE : 0, direction === "newer" ? PAGE : 0);
        if (mine !== generation.current) return;
        setList((s) => {
          const known = new Set(s.messages.map((m) => m.id));
          const fresh = page.messages.filter((m) => !known.has(m.id));
          return direction === "older"
            ? { ...s, messages: [...fresh, ...s.messages], foundOldest: page.found_oldest, loading: null }
            : { ...s, messages: [...s.messages, ...fresh], foundNewest: page.found_newest, loading: null };
        });
      } catch (e) {
        if (mine === generation.current) setList((s) => ({ ...s, loading: null, error: e instanceof Error ? e.message : String(e) }));
      }
    },
    [fetchPage],
  );

  useServerEvents(
    (events) => {
      const state = session.current;
      setList((s) => {
        const ctx = { narrow, myId: state.userId, foundNewest: s.foundNewest, channelName: (id: number) => channelName(state, id), mutedInFeed: (m: Message) => mutedInFeed(state, m) };
        const messages = events.reduce((list, event) => applyEventToList(list, event, ctx), s.messages);
        return messages === s.messages ? s : { ...s, messages };
      });
    },
    [narrowKey],
  );

  return { list, loadMore };
}
