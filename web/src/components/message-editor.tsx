/**
 * Editing one's own message in place: the raw Markdown (GET /messages/{id} without rendering),
 * saved with PATCH /messages/{id}. Ctrl/Cmd+Enter saves, Escape cancels.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { useSession } from "../session";

export function MessageEditor({ messageId, onDone }: { messageId: number; onDone: () => void }) {
  const session = useSession();
  const [content, setContent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    session.api
      .get<{ message: { content: string } }>(`/messages/${messageId}`, { apply_markdown: false })
      .then((r) => setContent(r.message.content))
      .catch((e: unknown) => setError(e instanceof ApiError ? e.msg : String(e)));
  }, [session, messageId]);

  useEffect(() => {
    if (content !== null) textarea.current?.focus();
  }, [content === null]);

  async function save() {
    if (content === null) return;
    setSaving(true);
    try {
      await session.api.patch(`/messages/${messageId}`, { content });
      onDone();
    } catch (e) {
      setError(e instanceof ApiError ? e.msg : String(e));
      setSaving(false);
    }
  }

  return (
    <form
      class="message-editor"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label class="visually-hidden" for={`edit-${messageId}`}>
        Edit message
      </label>
      <textarea
        id={`edit-${messageId}`}
        ref={textarea}
        rows={Math.min(12, Math.max(3, (content ?? "").split("\n").length + 1))}
        value={content ?? ""}
        disabled={content === null}
        onInput={(e) => setContent(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") onDone();
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void save();
          }
        }}
      />
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <div class="form-actions">
        <button type="button" class="button" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={saving || content === null}>
          Save
        </button>
      </div>
    </form>
  );
}
