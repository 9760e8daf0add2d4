/**
 * Reordering a list with buttons rather than drag and drop, so it works from the keyboard and with
 * a screen reader (channel folders, linkifiers). The caller sends the whole new order to the server.
 */

/** `ids` with the item at `index` moved by `delta` places (clamped to the list). */
export function moveItem(ids: readonly number[], index: number, delta: number): number[] {
  const target = Math.max(0, Math.min(ids.length - 1, index + delta));
  const order = [...ids];
  const [item] = order.splice(index, 1);
  order.splice(target, 0, item);
  return order;
}

export function ReorderButtons({ name, index, count, onMove }: { name: string; index: number; count: number; onMove(delta: number): void }) {
  return (
    <span class="reorder" role="group" aria-label={`Reorder ${name}`}>
      <button type="button" class="button button-icon" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => onMove(-1)}>
        ↑
      </button>
      <button type="button" class="button button-icon" aria-label={`Move ${name} down`} disabled={index === count - 1} onClick={() => onMove(1)}>
        ↓
      </button>
    </span>
  );
}
