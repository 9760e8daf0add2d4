/**
 * Arrow-key movement through a list of links or buttons (the sidebar, menus): Up/Down move focus
 * to the previous/next focusable item of the container, Home/End to the first/last.
 */
const ITEMS = "a[href], button:not([disabled]), [role='menuitem']";

export function moveFocusWithArrows(event: KeyboardEvent, container: HTMLElement | null): void {
  if (!container || !["ArrowDown", "ArrowUp", "Home", "End"].includes(event.key)) return;
  const items = [...container.querySelectorAll<HTMLElement>(ITEMS)].filter((el) => el.offsetParent !== null);
  if (items.length === 0) return;
  const index = items.indexOf(document.activeElement as HTMLElement);
  let next: number;
  if (event.key === "ArrowDown") next = index < 0 ? 0 : Math.min(items.length - 1, index + 1);
  else if (event.key === "ArrowUp") next = index < 0 ? items.length - 1 : Math.max(0, index - 1);
  else if (event.key === "Home") next = 0;
  else next = items.length - 1;
  event.preventDefault();
  items[next].focus();
}

/** Whether a key press happened while typing (shortcuts must not steal those). */
export function isTyping(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return !!target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}
