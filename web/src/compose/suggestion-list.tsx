/**
 * A suggestion list under a text field (WAI-ARIA's combobox pattern with a listbox popup): the
 * field keeps focus and points at the highlighted option with aria-activedescendant; Up/Down move,
 * Enter or Tab pick (an item may name one more key that picks it differently), Escape closes the
 * list until the field moves on to another token.
 */
import { useEffect, useState } from "preact/hooks";
import type { Suggestion } from "./typeahead";
import "./compose.css";

export interface ListNavigation {
  open: boolean;
  active: number;
  /** Handles the key when the list is open; returns whether it did. */
  onKeyDown: (event: KeyboardEvent, pick: (item: Suggestion) => void) => boolean;
}

/** `resetKey` names the token being completed: a new one reopens the list at its first item. */
export function useListNavigation(items: readonly Suggestion[], resetKey: string): ListNavigation {
  const [active, setActive] = useState(0);
  const [closedFor, setClosedFor] = useState<string | null>(null);
  useEffect(() => setActive(0), [resetKey, items.length]);
  const open = items.length > 0 && closedFor !== resetKey;
  const current = Math.min(active, items.length - 1);
  return {
    open,
    active: current,
    onKeyDown(event, pick) {
      if (!open || event.isComposing || event.altKey || event.ctrlKey || event.metaKey) return false;
      if (event.key === "ArrowDown") setActive((current + 1) % items.length);
      else if (event.key === "ArrowUp") setActive((current - 1 + items.length) % items.length);
      else if ((event.key === "Enter" && !event.shiftKey) || (event.key === "Tab" && !event.shiftKey)) pick(items[current]);
      else if (event.key === "Escape") setClosedFor(resetKey);
      else if (items[current].alternative?.key === event.key) pick({ ...items[current], insert: items[current].alternative?.insert ?? items[current].insert });
      else return false;
      event.preventDefault();
      event.stopPropagation();
      return true;
    },
  };
}

/** The ARIA attributes of the field the list belongs to. */
export function fieldAria(id: string, nav: ListNavigation) {
  return {
    "aria-autocomplete": "list" as const,
    "aria-controls": nav.open ? id : undefined,
    "aria-activedescendant": nav.open ? `${id}-${nav.active}` : undefined,
  };
}

interface Props {
  id: string;
  label: string;
  items: readonly Suggestion[];
  nav: ListNavigation;
  onPick: (item: Suggestion) => void;
  class?: string;
}

export function SuggestionList({ id, label, items, nav, onPick, class: className }: Props) {
  if (!nav.open) return null;
  return (
    <ul id={id} role="listbox" aria-label={label} class={`suggestions${className ? ` ${className}` : ""}`}>
      {items.map((item, i) => (
        <li
          key={item.key}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === nav.active}
          class={i === nav.active ? "suggestion active" : "suggestion"}
          // mousedown, not click: the field must not lose focus before the pick.
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(item);
          }}
        >
          {item.glyph?.src ? <img class="emoji-img" src={item.glyph.src} alt="" /> : item.glyph?.text ? <span aria-hidden="true">{item.glyph.text}</span> : null}
          <span class="suggestion-label">{item.label}</span>
          {item.detail && <span class="suggestion-detail">{item.detail}</span>}
        </li>
      ))}
    </ul>
  );
}
