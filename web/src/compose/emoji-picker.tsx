/**
 * The emoji picker (issue 20), for reactions and for the compose box: a search field over the
 * full set (names and aliases; the server's Unicode data loads when the picker first opens) and a
 * grid of emoji. Keyboard: type to search, Enter picks the first match, Down enters the grid,
 * arrows move in it, Escape closes.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { rankByName } from "./typeahead";
import { useAllEmoji, type EmojiChoice, type EmojiEntry } from "./emoji-data";
import { PopoverDialog } from "./popover-dialog";

/** Enough for any search; more would only slow the first paint of an empty query. */
const MAX_SHOWN = 400;
const COLUMNS = 8;

function Glyph({ emoji }: { emoji: EmojiEntry }) {
  return emoji.glyph.src ? <img class="emoji-img" src={emoji.glyph.src} alt="" /> : <span aria-hidden="true">{emoji.glyph.text}</span>;
}

interface Props {
  label: string;
  onPick: (emoji: EmojiChoice) => void;
  onClose: () => void;
  class?: string;
}

export function EmojiPicker({ label, onPick, onClose, class: className }: Props) {
  const all = useAllEmoji();
  const [query, setQuery] = useState("");
  const grid = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  // (The autofocus attribute only works at page load; a popup takes focus itself.)
  useEffect(() => search.current?.focus(), []);
  const shown = useMemo(() => (query.trim() === "" ? all.slice(0, MAX_SHOWN) : rankByName(all, query.trim().replace(/^:|:$/g, ""), (e) => [e.emoji_name, ...e.aliases], MAX_SHOWN)), [all, query]);
  const pick = (e: EmojiEntry) => onPick({ emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type });

  function onGridKey(event: KeyboardEvent) {
    const buttons = [...(grid.current?.querySelectorAll<HTMLButtonElement>("button") ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS }[event.key];
    if (step === undefined || index < 0) return;
    event.preventDefault();
    const next = index + step;
    if (next < 0) (grid.current?.parentElement?.querySelector("input") as HTMLInputElement | null)?.focus();
    else buttons[Math.min(next, buttons.length - 1)]?.focus();
  }

  return (
    <PopoverDialog kind="emoji-picker" label={label} onClose={onClose} class={className}>
      <input
        type="search"
        class="emoji-search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        autocomplete="off"
        maxLength={40}
        value={query}
        ref={search}
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && shown.length > 0) {
            e.preventDefault();
            pick(shown[0]);
          } else if (e.key === "ArrowDown") {
            e.preventDefault();
            grid.current?.querySelector("button")?.focus();
          }
        }}
      />
      <div class="emoji-grid" role={shown.length > 0 ? "menu" : undefined} aria-label={shown.length > 0 ? "Emoji" : undefined} ref={grid} onKeyDown={onGridKey}>
        {shown.map((emoji, i) => (
          <button
            key={`${emoji.reaction_type}:${emoji.emoji_code}`}
            type="button"
            role="menuitem"
            class="emoji-choice"
            tabindex={i === 0 ? 0 : -1}
            title={`:${emoji.emoji_name}:`}
            aria-label={emoji.emoji_name.replace(/_/g, " ")}
            onClick={() => pick(emoji)}
          >
            <Glyph emoji={emoji} />
          </button>
        ))}
      </div>
      {shown.length === 0 && <p class="emoji-none">No emoji match “{query}”.</p>}
    </PopoverDialog>
  );
}
