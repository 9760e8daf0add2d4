/** An unread count beside a sidebar entry; nothing when zero. */
export function UnreadBadge({ count, mention = false }: { count: number; mention?: boolean }) {
  if (count <= 0) return null;
  return (
    <span class={mention ? "badge mention" : "badge"} aria-label={`${count} unread`}>
      {count > 999 ? "999+" : count}
    </span>
  );
}
