/**
 * The messages of a narrow, oldest first, grouped under recipient bars (channel › topic, or the
 * people of a DM) and day separators. Scrolling near either end loads the next page; the first
 * page opens at the first unread message; new messages keep the view at the bottom if the reader
 * was there. Up/Down (or k/j) move between messages, Enter replies, e edits one's own message.
 */
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { formatDay, sameDay } from "../format";
import { channelName, dmTitle, narrowOfMessage } from "../narrow";
import { narrowHref, type Narrow } from "../router";
import { useClientState } from "../session";
import { useMessageList } from "../state/message-list";
import type { Message } from "../state/types";
import { isTyping } from "./keyboard";
import { useMarkAsRead } from "./mark-read";
import { MessageItem } from "./message-item";

/** Messages by the same sender this close together share one header. */
const SAME_RUN_SECONDS = 5 * 60;
const LOAD_MARGIN_PX = 400;

function recipientKey(m: Message): string {
  return m.type === "stream" ? `s:${m.stream_id}:${m.subject.toLowerCase()}` : `d:${JSON.stringify(m.display_recipient)}`;
}

function RecipientBar({ message }: { message: Message }) {
  const state = useClientState((s) => s);
  const narrow = narrowOfMessage(message, state.userId);
  if (message.type === "stream") {
    const name = channelName(state, message.stream_id ?? 0);
    return (
      <h3 class="recipient-bar">
        <a href={narrowHref({ kind: "channel", streamId: message.stream_id ?? 0 }, name)}>#{name}</a>
        <span aria-hidden="true"> › </span>
        <a href={narrowHref(narrow, name)}>{message.subject || <em>general chat</em>}</a>
      </h3>
    );
  }
  const ids = narrow.kind === "dm" ? narrow.userIds : [];
  return (
    <h3 class="recipient-bar dm">
      <a href={narrowHref(narrow)}>You and {dmTitle(state, ids)}</a>
    </h3>
  );
}

interface MessageListProps {
  narrow: Narrow;
  narrowKey: string;
  title: string;
  /** Reply to a message (with a quote of it, for quote and reply). */
  onReply: (message: Message, quote?: string) => void;
}

export function MessageList({ narrow, narrowKey, title, onReply }: MessageListProps) {
  const { list, loadMore } = useMessageList(narrow, narrowKey);
  const myId = useClientState((s) => s.userId);
  const [editing, setEditing] = useState<number | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const layout = useRef({ firstId: 0, lastId: 0, scrollHeight: 0, scrollTop: 0, atBottom: true, positioned: false });
  useMarkAsRead(scroller, list.messages);

  // Keeps the reader's place as pages arrive above, and follows new messages at the bottom.
  useLayoutEffect(() => {
    const el = scroller.current;
    const { messages } = list;
    if (!el) return;
    const before = layout.current;
    if (messages.length === 0) {
      layout.current = { ...before, firstId: 0, lastId: 0, positioned: false };
      return;
    }
    const firstId = messages[0].id;
    const lastId = messages[messages.length - 1].id;
    if (!before.positioned) {
      const target = list.scrollTarget !== null ? document.getElementById(`message-${list.scrollTarget}`) : null;
      if (target) el.scrollTop = Math.max(0, target.offsetTop - el.clientHeight / 3);
      else el.scrollTop = el.scrollHeight;
    } else if (firstId !== before.firstId && messages.some((m) => m.id === before.firstId)) {
      el.scrollTop = before.scrollTop + (el.scrollHeight - before.scrollHeight);
    } else if (lastId !== before.lastId && (before.atBottom || messages[messages.length - 1].sender_id === myId)) {
      // Following new messages, and showing one's own message just sent, as Zulip does.
      el.scrollTop = el.scrollHeight;
    }
    layout.current = { firstId, lastId, scrollHeight: el.scrollHeight, scrollTop: el.scrollTop, atBottom: el.scrollHeight - el.scrollTop - el.clientHeight < 40, positioned: true };
    // A page shorter than the view cannot be scrolled, so fetch more right away.
    if (el.scrollHeight <= el.clientHeight) void loadMore(list.foundOldest ? "newer" : "older");
  }, [list]);

  function onScroll() {
    const el = scroller.current;
    if (!el) return;
    const fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
    layout.current = { ...layout.current, scrollTop: el.scrollTop, scrollHeight: el.scrollHeight, atBottom: fromBottom < 40 };
    if (el.scrollTop < LOAD_MARGIN_PX) void loadMore("older");
    if (fromBottom < LOAD_MARGIN_PX) void loadMore("newer");
  }

  // An image (a thumbnail, a link preview) that loads after the list was placed makes it taller:
  // a reader who was at the bottom stays there. Image load events do not bubble, hence capture.
  function onImageLoad() {
    const el = scroller.current;
    if (!el || !layout.current.atBottom) return;
    el.scrollTop = el.scrollHeight;
    layout.current = { ...layout.current, scrollTop: el.scrollTop, scrollHeight: el.scrollHeight };
  }

  function onKeyDown(event: KeyboardEvent) {
    if (isTyping(event) || event.ctrlKey || event.metaKey || event.altKey) return;
    const articles = [...(scroller.current?.querySelectorAll<HTMLElement>("article.message") ?? [])];
    const current = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>("article.message") ?? null;
    const index = current ? articles.indexOf(current) : -1;
    const message = current ? list.messages.find((m) => m.id === Number(current.dataset.messageId)) : undefined;
    let next: HTMLElement | undefined;
    if (event.key === "ArrowDown" || event.key === "j") next = articles[index < 0 ? articles.length - 1 : Math.min(articles.length - 1, index + 1)];
    else if (event.key === "ArrowUp" || event.key === "k") next = articles[index < 0 ? articles.length - 1 : Math.max(0, index - 1)];
    else if (event.key === "End") next = articles[articles.length - 1];
    else if (event.key === "Home") next = articles[0];
    else if (event.key === "Enter" && message && event.target === current) onReply(message);
    else if (event.key === "e" && message?.sender_id === myId && event.target === current) setEditing(message.id);
    else return;
    event.preventDefault();
    next?.focus();
  }

  const rows = list.messages.map((message, i) => {
    const previous = list.messages[i - 1];
    const newDay = !previous || !sameDay(previous.timestamp, message.timestamp);
    const newRecipient = !previous || recipientKey(previous) !== recipientKey(message);
    const sameRun = previous && !newRecipient && !newDay && previous.sender_id === message.sender_id && message.timestamp - previous.timestamp < SAME_RUN_SECONDS;
    return (
      <div key={message.id} class="message-row">
        {newDay && (
          <div class="day-separator" role="separator">
            <span>{formatDay(message.timestamp)}</span>
          </div>
        )}
        {(newRecipient || newDay) && <RecipientBar message={message} />}
        <MessageItem message={message} showSender={!sameRun} editing={editing === message.id} onEdit={setEditing} onQuote={(quote) => onReply(message, quote)} />
      </div>
    );
  });

  return (
    <div class="message-scroller" ref={scroller} onScroll={onScroll} onLoadCapture={onImageLoad} onKeyDown={onKeyDown} role="log" aria-label={`Messages: ${title}`} aria-busy={list.loading !== null} tabindex={0}>
      {list.foundOldest && list.messages.length > 0 && <p class="list-edge">This is the beginning of the conversation.</p>}
      {list.loading === "older" && <p class="list-edge">Loading older messages…</p>}
      {rows}
      {list.loading === "newer" && <p class="list-edge">Loading newer messages…</p>}
      {list.loading === "initial" && <p class="list-edge">Loading…</p>}
      {list.loading === null && list.messages.length === 0 && !list.error && (narrow.kind === "all" ? (
        <p class="empty-narrow welcome">Welcome! Your feed is empty for now: open a channel in the sidebar to read its history, create one, or send someone a direct message.</p>
      ) : (
        <p class="empty-narrow">No messages here yet.</p>
      ))}
      {list.error && (
        <p class="form-error" role="alert">
          {list.error}
        </p>
      )}
    </div>
  );
}
