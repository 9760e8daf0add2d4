/**
 * Your status (spec 4.12): a text of at most 60 code points and an emoji, set with POST
 * /users/me/status. The emoji is sent by name only; the server looks up its code and type. Zulip's
 * preset statuses are offered as one-click choices.
 */
import { useState } from "preact/hooks";
import { emojiFromCode } from "../format";
import { useClientState, useSession } from "../session";
import { FormActions, TextField, useAction } from "./controls";

const MAX_STATUS_LENGTH = 60;

/** Zulip's default status suggestions. */
const PRESETS: ReadonlyArray<readonly [emojiName: string, glyph: string, text: string]> = [
  ["calendar", "📆", "In a meeting"],
  ["bus", "🚌", "Commuting"],
  ["sick", "🤒", "Out sick"],
  ["palm_tree", "🌴", "Vacationing"],
  ["house", "🏠", "Working remotely"],
  ["office", "🏢", "At the office"],
];

interface Status {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

function EmojiPreview({ status }: { status: Status }) {
  const realmEmoji = useClientState((s) => s.realmEmoji);
  if (!status.emoji_name) return null;
  if (status.reaction_type === "realm_emoji") {
    const emoji = realmEmoji[status.emoji_code ?? ""];
    return emoji ? <img class="status-emoji" src={emoji.source_url} alt={`:${status.emoji_name}:`} /> : null;
  }
  const glyph = status.reaction_type === "unicode_emoji" && status.emoji_code ? emojiFromCode(status.emoji_code) : "";
  return (
    <span class="status-emoji" role="img" aria-label={`:${status.emoji_name}:`}>
      {glyph || `:${status.emoji_name}:`}
    </span>
  );
}

export function StatusForm() {
  const session = useSession();
  const current = useClientState((s) => ((s.register.user_status ?? {}) as Record<string, Status>)[String(s.userId)] ?? {});
  const [text, setText] = useState(current.status_text ?? "");
  const [emoji, setEmoji] = useState(current.emoji_name ?? "");
  const action = useAction();
  const save = (statusText: string, emojiName: string) =>
    action.run(() => session.api.post("/users/me/status", { status_text: statusText, emoji_name: emojiName }), "Status updated");
  const choose = (emojiName: string, statusText: string) => {
    setText(statusText);
    setEmoji(emojiName);
    void save(statusText, emojiName);
  };
  const length = [...text].length;
  return (
    <form
      class="settings-card"
      aria-labelledby="status-title"
      onSubmit={(e) => {
        e.preventDefault();
        void save(text, emoji.trim().replace(/^:|:$/g, ""));
      }}
    >
      <h2 id="status-title">Status</h2>
      <p class="settings-current">
        Current status: <EmojiPreview status={current} /> {current.status_text || (current.emoji_name ? "" : "none")}
      </p>
      <div class="settings-row">
        <TextField id="status-emoji" label="Emoji name" hint="For example smile or palm_tree." value={emoji} onValue={setEmoji} />
        <TextField id="status-text" label="Status text" hint={`${length} / ${MAX_STATUS_LENGTH} characters`} value={text} onValue={setText} />
      </div>
      <div class="settings-presets" role="group" aria-label="Suggested statuses">
        {PRESETS.map(([name, glyph, label]) => (
          <button key={name} type="button" class="button button-quiet" onClick={() => choose(name, label)}>
            <span aria-hidden="true">{glyph}</span> {label}
          </button>
        ))}
      </div>
      <FormActions label="Save status" state={action.state}>
        <button type="button" class="button" onClick={() => choose("", "")}>
          Clear status
        </button>
      </FormActions>
    </form>
  );
}
