/**
 * Who a new message goes to: a channel and a topic, or the people of a direct message. People
 * are picked by name or email from the organization's active users (a native datalist, so the
 * browser's own accessible suggestion list is used), and shown as removable chips. The topic box
 * completes from the channel's topics (an ARIA combobox, compose/suggestion-list.tsx).
 */
import { useState } from "preact/hooks";
import { SuggestionList, useListNavigation } from "../compose/suggestion-list";
import { rankByName, type Suggestion } from "../compose/typeahead";
import type { ComposeTarget } from "../narrow";
import { useClientState } from "../session";
import { useChannelTopics } from "../state/topics";

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

const TOPIC_LIST_ID = "compose-topic-suggestions";

function TopicInput({ streamId, topic, onChange }: { streamId: number | null; topic: string; onChange: (topic: string) => void }) {
  const [focused, setFocused] = useState(false);
  // The list stays closed after a pick until the text changes again.
  const [picked, setPicked] = useState<string | null>(null);
  const topics = useChannelTopics(focused ? streamId : null);
  const items: Suggestion[] = focused && picked !== topic
    ? rankByName(topics ?? [], topic, (t) => [t.name])
        .filter((t) => t.name !== topic)
        .map((t) => ({ key: t.name, label: t.name, insert: t.name }))
    : [];
  const nav = useListNavigation(items, `${streamId}:${topic}`);
  const pick = (item: Suggestion) => {
    onChange(item.insert);
    setPicked(item.insert);
  };
  return (
    <span class="topic-field">
      <input
        id="compose-topic"
        class="topic-input"
        placeholder="Topic"
        maxLength={60}
        autocomplete="off"
        role="combobox"
        aria-expanded={nav.open}
        aria-autocomplete="list"
        aria-controls={nav.open ? TOPIC_LIST_ID : undefined}
        aria-activedescendant={nav.open ? `${TOPIC_LIST_ID}-${nav.active}` : undefined}
        value={topic}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onInput={(e) => onChange(e.currentTarget.value)}
        onKeyDown={(e) => nav.onKeyDown(e, pick)}
      />
      <SuggestionList id={TOPIC_LIST_ID} label="Topics" items={items} nav={nav} onPick={pick} class="topic-suggestions" />
    </span>
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
          <TopicInput streamId={target.streamId} topic={target.topic} onChange={(topic) => onChange({ ...target, topic })} />
        </>
      ) : (
        <PeoplePicker userIds={target.userIds} onChange={(userIds) => onChange({ kind: "dm", userIds })} />
      )}
    </div>
  );
}
