/**
 * Who a new message goes to: a channel and a topic, or the people of a direct message. People
 * are picked by name or email from the organization's active users (a native datalist, so the
 * browser's own accessible suggestion list is used), and shown as removable chips.
 */
import { useState } from "preact/hooks";
import type { ComposeTarget } from "../narrow";
import { useClientState } from "../session";

interface Props {
  target: ComposeTarget;
  onChange: (target: ComposeTarget) => void;
}

function PeoplePicker({ userIds, onChange }: { userIds: number[]; onChange: (ids: number[]) => void }) {
  const users = useClientState((s) => s.users);
  const myId = useClientState((s) => s.userId);
  const [query, setQuery] = useState("");
  const candidates = [...users.values()].filter((u) => u.is_active && u.user_id !== myId && !userIds.includes(u.user_id));
  const label = (u: { full_name: string; email: string }) => `${u.full_name} <${u.email}>`;

  function onInput(value: string) {
    const match = candidates.find((u) => label(u) === value || u.email.toLowerCase() === value.trim().toLowerCase());
    if (match) {
      onChange([...userIds, match.user_id]);
      setQuery("");
    } else setQuery(value);
  }

  return (
    <div class="people-picker">
      <ul class="chips" aria-label="Recipients">
        {userIds.map((id) => (
          <li key={id} class="chip">
            {users.get(id)?.full_name ?? id}
            <button type="button" class="chip-remove" aria-label={`Remove ${users.get(id)?.full_name ?? id}`} onClick={() => onChange(userIds.filter((x) => x !== id))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <label class="visually-hidden" for="compose-people">
        Add a recipient
      </label>
      <input
        id="compose-people"
        list="compose-people-options"
        placeholder={userIds.length === 0 ? "Name or email" : "Add another"}
        value={query}
        onInput={(e) => onInput(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Backspace" && query === "" && userIds.length > 0) onChange(userIds.slice(0, -1));
        }}
      />
      <datalist id="compose-people-options">
        {candidates.map((u) => (
          <option key={u.user_id} value={label(u)} />
        ))}
      </datalist>
    </div>
  );
}

export function ComposeRecipient({ target, onChange }: Props) {
  const channels = useClientState((s) => s.subscriptions);
  const sorted = [...channels.values()].filter((c) => !c.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div class="compose-recipient">
      <div class="segmented" role="radiogroup" aria-label="Message type">
        <button type="button" role="radio" aria-checked={target.kind === "stream"} onClick={() => target.kind !== "stream" && onChange({ kind: "stream", streamId: null, topic: "" })}>
          Channel
        </button>
        <button type="button" role="radio" aria-checked={target.kind === "dm"} onClick={() => target.kind !== "dm" && onChange({ kind: "dm", userIds: [] })}>
          Direct message
        </button>
      </div>
      {target.kind === "stream" ? (
        <>
          <label class="visually-hidden" for="compose-channel">
            Channel
          </label>
          <select
            id="compose-channel"
            value={target.streamId === null ? "" : String(target.streamId)}
            onChange={(e) => onChange({ ...target, streamId: e.currentTarget.value === "" ? null : Number(e.currentTarget.value) })}
          >
            <option value="">Choose a channel</option>
            {sorted.map((c) => (
              <option key={c.stream_id} value={String(c.stream_id)}>
                #{c.name}
              </option>
            ))}
          </select>
          <span aria-hidden="true" class="separator">
            ›
          </span>
          <label class="visually-hidden" for="compose-topic">
            Topic
          </label>
          <input id="compose-topic" class="topic-input" placeholder="Topic" maxLength={60} value={target.topic} onInput={(e) => onChange({ ...target, topic: e.currentTarget.value })} />
        </>
      ) : (
        <PeoplePicker userIds={target.userIds} onChange={(userIds) => onChange({ kind: "dm", userIds })} />
      )}
    </div>
  );
}
