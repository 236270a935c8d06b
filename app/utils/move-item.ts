/** A drag's result in the admin's ad order (docs/product.md §3.11): the item's index before and after, 0-based. */
export type DragResult = { source: number; destination: number };

/** `items` with the item at `source` moved to `destination` (a new array). */
export function moveItem<T>(items: readonly T[], { source, destination }: DragResult): T[] {
  const next = [...items];
  const [moved] = next.splice(source, 1);
  next.splice(destination, 0, moved);
  return next;
}
