/**
 * One message: the sender (unless the previous message was theirs, moments before), the time,
 * the rendered content, "edited"/"moved" markers that open the edit history, reactions, and a
 * toolbar (react, star, edit own message) shown on hover and keyboard focus.
 */
import { useState } from "preact/hooks";
import { formatFull, formatTime } from "../format";
import { useClientState, useSession } from "../session";
import type { Message } from "../state/types";
import { Avatar } from "./avatar";
import { EditHistoryDialog } from "./edit-history-dialog";
import { MessageActions } from "./message-actions";
import { ReadReceiptsDialog } from "./read-receipts-dialog";
import { MessageEditor } from "./message-editor";
import { EmojiPicker } from "../compose/emoji-picker";
import { Reactions, useToggleReaction } from "./reactions";
import { RenderedContent } from "./rendered-content";

interface MessageItemProps {
  message: Message;
  /** Whether to show the sender's name and avatar (first of a run by the same sender). */
  showSender: boolean;
  editing: boolean;
  onEdit: (id: number | null) => void;
  /** Quote and reply: the Markdown to add to the compose box. */
  onQuote: (markdown: string) => void;
}

function SenderAvatar({ message }: { message: Message }) {
  const url = useClientState((s) => s.users.get(message.sender_id)?.avatar_url ?? message.avatar_url);
  return <Avatar url={url} userId={message.sender_id} name={message.sender_full_name} />;
}

export function MessageItem({ message, showSender, editing, onEdit, onQuote }: MessageItemProps) {
  const session = useSession();
  const myId = useClientState((s) => s.userId);
  const [picking, setPicking] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const [showReaders, setShowReaders] = useState(false);
  const toggleReaction = useToggleReaction();
  const starred = message.flags.includes("starred");
  const unread = !message.flags.includes("read");
  const mentioned = message.flags.includes("mentioned") || message.flags.some((f) => f.endsWith("wildcard_mentioned"));
  const mine = message.sender_id === myId;
  const marker = message.last_moved_timestamp !== undefined && message.last_edit_timestamp === undefined ? "moved" : message.last_edit_timestamp !== undefined ? "edited" : null;

  const toggleStar = () => void session.api.post("/messages/flags", { messages: [message.id], op: starred ? "remove" : "add", flag: "starred" }).catch(() => undefined);

  return (
    <article
      class={`message${showSender ? " first" : ""}${unread ? " unread" : ""}${mentioned ? " mentioned" : ""}`}
      id={`message-${message.id}`}
      data-message-id={message.id}
      tabindex={-1}
      aria-label={`${message.sender_full_name}, ${formatFull(message.timestamp)}`}
    >
      <div class="message-gutter">{showSender ? <SenderAvatar message={message} /> : <span class="message-time-compact">{formatTime(message.timestamp)}</span>}</div>
      <div class="message-main">
        {showSender && (
          <header class="message-header">
            <span class="sender">{message.sender_full_name}</span>
            <time class="message-time" dateTime={new Date(message.timestamp * 1000).toISOString()} title={formatFull(message.timestamp)}>
              {formatTime(message.timestamp)}
            </time>
          </header>
        )}
        {editing ? (
          <MessageEditor messageId={message.id} onDone={() => onEdit(null)} />
        ) : (
          <div class="message-body">
            <RenderedContent html={message.match_content ?? message.content} />
            {marker && (
              <button type="button" class="edit-marker" onClick={() => setShowHistory(true)} aria-label={`${marker}: view the edit history`}>
                ({marker})
              </button>
            )}
          </div>
        )}
        <Reactions message={message} />
      </div>
      <div class={`message-actions${picking ? " open" : ""}`} role="toolbar" aria-label="Message actions">
        <button type="button" class="icon-button" aria-label="Add reaction" aria-haspopup="dialog" aria-expanded={picking} onClick={() => setPicking(!picking)}>
          ☺
        </button>
        <button type="button" class={`icon-button${starred ? " on" : ""}`} aria-label={starred ? "Unstar" : "Star"} aria-pressed={starred} onClick={toggleStar}>
          {starred ? "★" : "☆"}
        </button>
        {mine && !editing && (
          <button type="button" class="icon-button" aria-label="Edit message" onClick={() => onEdit(message.id)}>
            ✎
          </button>
        )}
        <MessageActions message={message} onQuote={onQuote} onShowReaders={() => setShowReaders(true)} />
        {picking && (
          <EmojiPicker
            label="Add a reaction"
            onClose={() => setPicking(false)}
            onPick={(emoji) => {
              setPicking(false);
              void toggleReaction(message, emoji);
            }}
          />
        )}
      </div>
      {showHistory && <EditHistoryDialog messageId={message.id} onClose={() => setShowHistory(false)} />}
      {showReaders && <ReadReceiptsDialog messageId={message.id} onClose={() => setShowReaders(false)} />}
    </article>
  );
}
