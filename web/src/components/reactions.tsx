/**
 * Emoji reactions under a message: one chip per emoji with its count, pressed when the reader
 * reacted; a click toggles the reader's reaction (POST/DELETE /messages/{id}/reactions). The
 * picker (compose/emoji-picker.tsx) searches the whole emoji set.
 */
import { ApiError } from "../api/client";
import { emojiFromCode, listNames } from "../format";
import { useClientState, useSession } from "../session";
import { userName } from "../state/client-state";
import type { Message, Reaction } from "../state/types";

type EmojiChoice = Pick<Reaction, "emoji_name" | "emoji_code" | "reaction_type">;

export function useToggleReaction() {
  const session = useSession();
  return async (message: Message, emoji: EmojiChoice) => {
    const mine = message.reactions.some((r) => r.user_id === session.current.userId && r.emoji_code === emoji.emoji_code && r.reaction_type === emoji.reaction_type);
    const params = { emoji_name: emoji.emoji_name, emoji_code: emoji.emoji_code, reaction_type: emoji.reaction_type };
    try {
      if (mine) await session.api.delete(`/messages/${message.id}/reactions`, params);
      else await session.api.post(`/messages/${message.id}/reactions`, params);
    } catch (e) {
      // A double click races the event that updates the chip; the server's answer is the truth.
      if (!(e instanceof ApiError)) throw e;
    }
  };
}

export function EmojiGlyph({ emoji }: { emoji: EmojiChoice }) {
  const custom = useClientState((s) => (emoji.reaction_type === "realm_emoji" ? s.realmEmoji[emoji.emoji_code] : undefined));
  if (custom) return <img class="emoji-img" src={custom.source_url} alt={`:${emoji.emoji_name}:`} />;
  if (emoji.reaction_type === "zulip_extra_emoji") return <span aria-hidden="true">🐙</span>;
  return <span aria-hidden="true">{emojiFromCode(emoji.emoji_code)}</span>;
}

export function Reactions({ message }: { message: Message }) {
  const state = useClientState((s) => s);
  const toggle = useToggleReaction();
  if (message.reactions.length === 0) return null;
  const groups = new Map<string, { emoji: EmojiChoice; users: number[] }>();
  for (const r of message.reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const group = groups.get(key) ?? { emoji: r, users: [] };
    group.users.push(r.user_id);
    groups.set(key, group);
  }
  return (
    <div class="reactions" role="group" aria-label="Reactions">
      {[...groups.values()].map(({ emoji, users }) => {
        const mine = users.includes(state.userId);
        const who = listNames(users.map((id) => (id === state.userId ? "You" : userName(state, id))), 5);
        return (
          <button
            key={`${emoji.reaction_type}:${emoji.emoji_code}`}
            type="button"
            class={mine ? "reaction mine" : "reaction"}
            aria-pressed={mine}
            aria-label={`${emoji.emoji_name.replace(/_/g, " ")}: ${users.length}, by ${who}`}
            title={`${who} reacted with :${emoji.emoji_name}:`}
            onClick={() => void toggle(message, emoji)}
          >
            <EmojiGlyph emoji={emoji} />
            <span class="count">{users.length}</span>
          </button>
        );
      })}
    </div>
  );
}
