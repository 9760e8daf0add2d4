/**
 * Scheduled messages and reminders (issue 20; `#/scheduled`, Zulip's scheduled messages overlay
 * and reminders list), from register's scheduled_messages and reminders kept current by events.
 * A scheduled message can be edited (time and text; PATCH /scheduled_messages/{id}), sent now
 * (POST /messages, then its schedule deleted) or deleted; a reminder deleted (DELETE /reminders/{id}).
 */
import { useState } from "preact/hooks";
import { ApiError } from "../api/client";
import { useClientState, useSession } from "../session";
import { remindersOf, scheduledOf, type ScheduledMessage } from "../state/compose-lists";
import { RenderedContent } from "../components/rendered-content";
import { recipientLabel } from "./drafts-view";
import { formatWhen, fromLocalInput, toLocalInput } from "./time";

const errorText = (e: unknown) => (e instanceof ApiError ? e.msg : String(e));

function ScheduledEditor({ message, onDone }: { message: ScheduledMessage; onDone: () => void }) {
  const session = useSession();
  const [when, setWhen] = useState(toLocalInput(new Date(message.scheduled_delivery_timestamp * 1000)));
  const [content, setContent] = useState(message.content);
  const [error, setError] = useState<string | null>(null);
  const id = `scheduled-${message.scheduled_message_id}`;

  async function save(e: Event) {
    e.preventDefault();
    const seconds = fromLocalInput(when);
    if (seconds === null) return setError("Choose a date and time.");
    if (content.trim() === "") return setError("The message is empty.");
    try {
      await session.api.patch(`/scheduled_messages/${message.scheduled_message_id}`, { content, scheduled_delivery_timestamp: seconds });
      onDone();
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <form class="scheduled-editor" onSubmit={(e) => void save(e)}>
      <label for={`${id}-when`}>Send at</label>
      <input id={`${id}-when`} type="datetime-local" value={when} onInput={(e) => setWhen(e.currentTarget.value)} />
      <label for={`${id}-content`}>Message</label>
      <textarea id={`${id}-content`} rows={3} value={content} onInput={(e) => setContent(e.currentTarget.value)} />
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <div class="compose-list-actions">
        <button type="submit" class="button primary">
          Save
        </button>
        <button type="button" class="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function ScheduledView() {
  const session = useSession();
  const state = useClientState((s) => s);
  const scheduled = useClientState(scheduledOf);
  const reminders = useClientState(remindersOf);
  const [editing, setEditing] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fail = (e: unknown) => setError(errorText(e));

  async function sendNow(m: ScheduledMessage) {
    try {
      const params = m.type === "stream" ? { type: "stream", to: m.to, topic: m.topic ?? "", content: m.content } : { type: "direct", to: m.to, content: m.content };
      await session.api.post("/messages", params);
      await session.api.delete(`/scheduled_messages/${m.scheduled_message_id}`);
    } catch (e) {
      fail(e);
    }
  }

  return (
    <section class="compose-list-view" aria-labelledby="scheduled-title">
      <header class="narrow-bar">
        <h1 id="scheduled-title">Scheduled messages</h1>
      </header>
      <div class="compose-list-body">
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        {scheduled.length === 0 ? (
          <p class="empty-narrow">No scheduled messages.</p>
        ) : (
          <ul class="compose-list" aria-label="Scheduled messages">
            {scheduled.map((m) => (
              <li key={m.scheduled_message_id} class="compose-list-item">
                <div class="compose-list-meta">
                  <span class="compose-list-recipient">{recipientLabel(state, m.type, m.to, m.topic)}</span>
                  <span>{m.failed ? "Could not be sent" : `Sends ${formatWhen(m.scheduled_delivery_timestamp)}`}</span>
                </div>
                {editing === m.scheduled_message_id ? (
                  <ScheduledEditor message={m} onDone={() => setEditing(null)} />
                ) : (
                  <>
                    <RenderedContent html={m.rendered_content} />
                    <div class="compose-list-actions">
                      <button type="button" class="button" onClick={() => setEditing(m.scheduled_message_id)}>
                        Edit
                      </button>
                      <button type="button" class="button primary" onClick={() => void sendNow(m)}>
                        Send now
                      </button>
                      <button type="button" class="button" onClick={() => void session.api.delete(`/scheduled_messages/${m.scheduled_message_id}`).catch(fail)}>
                        Delete
                      </button>
                    </div>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
        <h2 class="compose-list-heading">Reminders</h2>
        {reminders.length === 0 ? (
          <p class="empty-narrow">No reminders.</p>
        ) : (
          <ul class="compose-list" aria-label="Reminders">
            {reminders.map((r) => (
              <li key={r.reminder_id} class="compose-list-item">
                <div class="compose-list-meta">
                  <span class="compose-list-recipient">Reminder</span>
                  <span>{r.failed ? "Could not be sent" : `Reminds you ${formatWhen(r.scheduled_delivery_timestamp)}`}</span>
                </div>
                <RenderedContent html={r.rendered_content} />
                <div class="compose-list-actions">
                  <button type="button" class="button" onClick={() => void session.api.delete(`/reminders/${r.reminder_id}`).catch(fail)}>
                    Delete
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
