/**
 * The message toolbar's further actions (issue 20), as in Zulip's message menu: quote and reply
 * (the raw Markdown from GET /messages/{id}, in a ```quote block under a silent mention), copy a
 * link to the message (Zulip's `#narrow/channel/…/near/{id}` form), move the topic (PATCH
 * /messages/{id} with propagate_mode change_all) and delete (DELETE /messages/{id}). Moving and
 * deleting are offered on one's own messages and to administrators; the server has the last word
 * (its refusal is shown). "Remind me about this" is compose/remind-me.tsx.
 */
import { RemindMe } from "../compose/remind-me";
import { useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { narrowHref } from "../router";
import { useClientState, useSession } from "../session";
import { isAdmin } from "../state/client-state";
import type { Message } from "../state/types";
import { readReceiptsOn } from "./read-receipts-dialog";

/** A permanent link to a message, in Zulip's own `near` form (the router reads it). */
export function messageLink(message: Message, channelName: string, myId: number): string {
  const base = `${window.location.origin}/`;
  if (message.type === "stream") {
    const topic = narrowHref({ kind: "topic", streamId: message.stream_id ?? 0, topic: message.subject }, channelName).replace("#/narrow/", "#narrow/");
    return `${base}${topic}/near/${message.id}`;
  }
  const ids = Array.isArray(message.display_recipient) ? message.display_recipient.map((r) => r.id).filter((id) => id !== myId) : [];
  return `${base}#narrow/dm/${(ids.length ? ids : [myId]).join(",")}/near/${message.id}`;
}

interface Props {
  message: Message;
  onQuote: (markdown: string) => void;
  /** Opens the read receipts dialog (kept by the message, outside this hover-only toolbar). */
  onShowReaders?: () => void;
}

export function MessageActions({ message, onQuote, onShowReaders }: Props) {
  const session = useSession();
  const myId = useClientState((s) => s.userId);
  const admin = useClientState(isAdmin);
  const channelName = useClientState((s) => (message.stream_id !== undefined ? (s.channels.get(message.stream_id)?.name ?? "") : ""));
  const [status, setStatus] = useState("");
  const receipts = useClientState((s) => readReceiptsOn(s.realm));
  const mayChange = message.sender_id === myId || admin;
  const fail = (e: unknown) => setStatus(e instanceof ApiError ? e.msg : String(e));

  async function quote() {
    try {
      const { message: raw } = await session.api.get<{ message: Message }>(`/messages/${message.id}`, { apply_markdown: false });
      const link = messageLink(message, channelName, myId);
      onQuote(`@_**${message.sender_full_name}|${message.sender_id}** [said](${link}):\n\`\`\`quote\n${raw.content}\n\`\`\`\n`);
    } catch (e) {
      fail(e);
    }
  }

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(messageLink(message, channelName, myId));
      setStatus("Link copied");
    } catch {
      setStatus("Could not copy the link");
    }
  }

  function moveTopic() {
    const topic = window.prompt("Move the topic to:", message.subject);
    if (topic === null || topic.trim() === message.subject) return;
    void session.api.patch(`/messages/${message.id}`, { topic: topic.trim(), propagate_mode: "change_all" }).catch(fail);
  }

  function remove() {
    if (!window.confirm("Delete this message? This cannot be undone.")) return;
    void session.api.delete(`/messages/${message.id}`).catch(fail);
  }

  return (
    <>
      <button type="button" class="icon-button" aria-label="Quote and reply" onClick={() => void quote()}>
        ❝
      </button>
      <button type="button" class="icon-button" aria-label="Copy link to message" onClick={() => void copyLink()}>
        🔗
      </button>
      {receipts && onShowReaders && (
        <button type="button" class="icon-button" aria-label="View read receipts" onClick={onShowReaders}>
          ✓✓
        </button>
      )}
      {mayChange && message.type === "stream" && (
        <button type="button" class="icon-button" aria-label="Move topic" onClick={moveTopic}>
          ⇄
        </button>
      )}
      {mayChange && (
        <button type="button" class="icon-button" aria-label="Delete message" onClick={remove}>
          🗑
        </button>
      )}
      <RemindMe messageId={message.id} />
      {status && (
        <span class="action-status" role="status">
          {status}
        </span>
      )}
    </>
  );
}
