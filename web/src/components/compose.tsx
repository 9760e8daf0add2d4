/**
 * The compose box (issue 10): recipient (channel and topic, or people), the Markdown draft with
 * a server-rendered preview (POST /messages/render), uploads by button, drag and drop or paste,
 * typing notifications (spec 4.1, typing-notifier.ts) and sending with POST /messages. Enter
 * sends when the user's enter_sends setting is on, Ctrl/Cmd+Enter always does. Issue 20 adds the
 * typeahead and emoji picker, drafts kept on the server and schedule send (web/src/compose/).
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { EmojiPicker } from "../compose/emoji-picker";
import { formatWhen } from "../compose/time";
import { ScheduleSend } from "../compose/schedule-send";
import { useComposeTypeahead } from "../compose/use-compose-typeahead";
import { draftToRestore, useAllDrafts, useDraftSync } from "../compose/use-draft-sync";
import type { ComposeTarget } from "../narrow";
import { useClientState, useSession } from "../session";
import { conversationKey } from "../state/client-state";
import { scheduledOf } from "../state/compose-lists";
import { TypingNotifier, type TypingTarget } from "../state/typing-notifier";
import { dmKey } from "../state/unread";
import { ComposeRecipient } from "./compose-recipient";
import { RenderedContent } from "./rendered-content";
import { TypingIndicator } from "./typing-indicator";
import { useUploads } from "./use-uploads";

function typingTarget(target: ComposeTarget, settings: Record<string, unknown>): TypingTarget | null {
  if (target.kind === "stream") {
    if (target.streamId === null || settings.send_stream_typing_notifications === false) return null;
    return { type: "stream", streamId: target.streamId, topic: target.topic };
  }
  if (target.userIds.length === 0 || settings.send_private_typing_notifications === false) return null;
  return { type: "direct", to: target.userIds };
}

interface ComposeProps {
  target: ComposeTarget;
  onTargetChange: (target: ComposeTarget) => void;
  /** Changes when the reader asks to reply, so compose takes focus. */
  focusRequest: number;
  /** Text to add to the draft (a quote), new each time its `seq` changes. */
  insert?: { text: string; seq: number } | null;
}

export function Compose({ target, onTargetChange, focusRequest, insert }: ComposeProps) {
  const session = useSession();
  const userSettings = useClientState((s) => s.userSettings);
  const myId = useClientState((s) => s.userId);
  const [content, setContent] = useState("");
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [pickingEmoji, setPickingEmoji] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const counts = { drafts: useAllDrafts().length, scheduled: useClientState((s) => scheduledOf(s).length) };
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { uploads, uploadError, clearUploadError, startUploads } = useUploads((change) => setContent(change));
  const typeahead = useComposeTypeahead(content, textarea, (value) => edit(value));
  const drafts = useDraftSync(target, content);
  useEffect(() => {
    const draft = draftToRestore.get();
    if (!draft) return;
    draftToRestore.set(null);
    drafts.adopt(draft);
    setContent(draft.content);
    textarea.current?.focus();
  }, []);

  const notifier = useMemo(
    () =>
      new TypingNotifier(
        (op, t) => {
          const params = t.type === "stream" ? { type: "channel", op, stream_id: t.streamId, topic: t.topic } : { type: "direct", op, to: t.to };
          void session.api.post("/typing", params).catch(() => undefined);
        },
        () => session.current.typingPeriods,
      ),
    [session],
  );
  useEffect(() => () => notifier.stop(), [notifier]);
  useEffect(() => {
    if (focusRequest > 0) textarea.current?.focus();
  }, [focusRequest]);
  useEffect(() => {
    if (insert) setContent((c) => `${c}${c === "" || c.endsWith("\n") ? "" : "\n"}${insert.text}`);
  }, [insert?.seq]);

  const conversation = target.kind === "stream" ? (target.streamId === null ? null : conversationKey({ streamId: target.streamId, topic: target.topic })) : target.userIds.length > 0 ? conversationKey({ dmKey: dmKey(target.userIds, myId) }) : null;

  function edit(value: string) {
    setContent(value);
    setPreview(null);
    setError(null); // an error about the previous text (too long, no channel) no longer applies
    if (value.trim() === "") notifier.stop();
    else notifier.onInput(typingTarget(target, userSettings));
  }

  async function togglePreview() {
    if (preview !== null) return setPreview(null);
    try {
      const { rendered } = await session.api.post<{ rendered: string }>("/messages/render", { content });
      setPreview(rendered);
    } catch (e) {
      setError(e instanceof ApiError ? e.msg : String(e));
    }
  }

  /** The request parameters for the message as it stands, or null (and an error shown). */
  function messageParams(): Record<string, unknown> | null {
    if (target.kind === "stream" && target.streamId === null) return (setError("Choose a channel first."), null);
    if (target.kind === "dm" && target.userIds.length === 0) return (setError("Choose who to send it to."), null);
    return target.kind === "stream" ? { type: "stream", to: target.streamId, topic: target.topic, content } : { type: "direct", to: target.userIds, content };
  }

  /** The text left the box (sent or scheduled): clear it and its draft. */
  function sentOff() {
    notifier.stop();
    drafts.sent();
    setContent("");
    setPreview(null);
    clearUploadError();
  }

  async function send() {
    if (content.trim() === "" || sending || uploads.length > 0) return;
    const params = messageParams();
    if (!params) return;
    setSending(true);
    setError(null);
    setNotice(null);
    try {
      await session.api.post("/messages", params);
      sentOff();
    } catch (e) {
      setError(e instanceof ApiError ? e.msg : String(e));
    } finally {
      setSending(false);
      textarea.current?.focus();
    }
  }

  /** Puts `text` at the caret (an emoji from the picker). */
  function insertAtCaret(text: string) {
    const el = textarea.current;
    const at = el?.selectionStart ?? content.length;
    const before = content.slice(0, at);
    const piece = `${before === "" || /\s$/.test(before) ? "" : " "}${text} `;
    edit(before + piece + content.slice(el?.selectionEnd ?? at));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + piece.length, at + piece.length);
    });
  }

  function onKeyDown(event: KeyboardEvent) {
    if (typeahead.onKeyDown(event)) return;
    if (event.key !== "Enter" || event.isComposing) return;
    const enterSends = userSettings.enter_sends === true;
    if (event.ctrlKey || event.metaKey || (enterSends && !event.shiftKey)) {
      event.preventDefault();
      void send();
    }
  }

  const shownError = error ?? uploadError;
  return (
    <section
      class={`compose${dragging ? " dragging" : ""}`}
      aria-label="Compose a message"
      onDragOver={(e) => {
        if (!e.dataTransfer?.types.includes("Files")) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        if (!e.dataTransfer?.files.length) return;
        e.preventDefault();
        setDragging(false);
        startUploads(e.dataTransfer.files);
      }}
    >
      <ComposeRecipient
        target={target}
        onChange={(next) => {
          notifier.stop();
          setError(null);
          onTargetChange(next);
        }}
      />
      <TypingIndicator conversation={conversation} />
      {preview !== null ? (
        <div class="compose-preview" aria-label="Preview">
          <RenderedContent html={preview || "<p><em>Nothing to preview</em></p>"} />
        </div>
      ) : (
        <div class="compose-field">
          <label class="visually-hidden" for="compose-content">
            Message
          </label>
          {typeahead.list}
          <textarea
            id="compose-content"
            ref={textarea}
            class="compose-textarea"
            {...typeahead.aria}
            onKeyUp={typeahead.trackCaret}
            onClick={typeahead.trackCaret}
            placeholder={userSettings.enter_sends === true ? "Message (Enter to send, Shift+Enter for a new line)" : "Message (Ctrl+Enter to send)"}
            rows={3}
            value={content}
            onInput={(e) => {
              edit(e.currentTarget.value);
              typeahead.trackCaret(e);
            }}
            onKeyDown={onKeyDown}
            onPaste={(e) => {
              if (e.clipboardData?.files.length) {
                e.preventDefault();
                startUploads(e.clipboardData.files);
              }
            }}
          />
        </div>
      )}
      {uploads.map((u) => (
        <p key={u.id} class="upload-progress" role="status">
          Uploading {u.name}… {Math.round(u.fraction * 100)}%
        </p>
      ))}
      {notice && (
        <p class="compose-notice" role="status">
          {notice}{" "}
          <a href="#/scheduled">View scheduled messages</a>
        </p>
      )}
      {shownError && (
        <p class="form-error" role="alert">
          {shownError}{" "}
          <button type="button" class="link-button" onClick={() => (setError(null), clearUploadError())}>
            Dismiss
          </button>
        </p>
      )}
      <div class="compose-actions">
        <input ref={fileInput} type="file" multiple class="visually-hidden" id="compose-file" aria-label="Attach files" tabindex={-1} onChange={(e) => (startUploads(e.currentTarget.files ?? []), (e.currentTarget.value = ""))} />
        <button type="button" class="button" onClick={() => fileInput.current?.click()}>
          Attach files
        </button>
        <span class="compose-emoji">
          <button type="button" class="button" aria-haspopup="dialog" aria-expanded={pickingEmoji} onClick={() => setPickingEmoji(!pickingEmoji)} disabled={preview !== null}>
            Emoji
          </button>
          {pickingEmoji && (
            <EmojiPicker
              label="Insert an emoji"
              class="above"
              onClose={() => (setPickingEmoji(false), textarea.current?.focus())}
              onPick={(emoji) => {
                setPickingEmoji(false);
                insertAtCaret(`:${emoji.emoji_name}:`);
              }}
            />
          )}
        </span>
        <button type="button" class="button" aria-pressed={preview !== null} onClick={() => void togglePreview()} disabled={content.trim() === ""}>
          {preview !== null ? "Edit" : "Preview"}
        </button>
        <span class="spacer" />
        <a class="compose-link" href="#/drafts">
          Drafts{counts.drafts > 0 ? ` (${counts.drafts})` : ""}
        </a>
        {counts.scheduled > 0 && (
          <a class="compose-link" href="#/scheduled">
            Scheduled ({counts.scheduled})
          </a>
        )}
        <label class="enter-sends">
          <input
            type="checkbox"
            checked={userSettings.enter_sends === true}
            onChange={(e) => void session.api.patch("/settings", { enter_sends: e.currentTarget.checked }).catch((err: unknown) => setError(err instanceof ApiError ? err.msg : String(err)))}
          />
          Enter to send
        </label>
        <button type="button" class="button primary" onClick={() => void send()} disabled={sending || content.trim() === "" || uploads.length > 0}>
          Send
        </button>
        <ScheduleSend
          disabled={content.trim() === "" || uploads.length > 0}
          params={messageParams}
          onScheduled={(seconds) => {
            sentOff();
            setNotice(`Scheduled for ${formatWhen(seconds)}.`);
          }}
        />
      </div>
    </section>
  );
}
