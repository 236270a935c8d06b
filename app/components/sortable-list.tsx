/**
 * A list reorderable by dragging (sortablejs, docs/product.md §4.6 Ad edit card: the drag result is a source and
 * a destination index). React keeps owning the DOM: the move sortablejs made is undone at once and
 * reported, and the caller re-renders the new order. sortablejs loads in the browser only, after
 * hydration; without JavaScript the list is a plain ordered list.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import type { DragResult } from '~/utils/move-item';

export function SortableList({
  children,
  className,
  handle,
  disabled = false,
  onMove,
  label,
}: {
  children: ReactNode;
  className?: string;
  /** CSS selector of the drag handle inside each item. */
  handle: string;
  disabled?: boolean;
  onMove: (result: DragResult) => void;
  /** The list's accessible name. */
  label: string;
}) {
  const ref = useRef<HTMLOListElement>(null);
  const onMoveRef = useRef(onMove);
  const sortableRef = useRef<{ option(name: 'disabled', value: boolean): void; destroy(): void } | null>(null);
  const disabledRef = useRef(disabled);
  useEffect(() => {
    onMoveRef.current = onMove;
    disabledRef.current = disabled;
    sortableRef.current?.option('disabled', disabled);
  });

  useEffect(() => {
    let cancelled = false;
    void import('sortablejs').then(({ default: Sortable }) => {
      if (cancelled || !ref.current) return;
      sortableRef.current = Sortable.create(ref.current, {
        handle,
        animation: 150,
        disabled: disabledRef.current,
        onEnd: ({ item, from, oldIndex, newIndex }) => {
          if (oldIndex === undefined || newIndex === undefined || oldIndex === newIndex) return;
          // Undo sortablejs's DOM move so React's view of the DOM stays true, then report the move.
          from.removeChild(item);
          from.insertBefore(item, from.children[oldIndex] ?? null);
          onMoveRef.current({ source: oldIndex, destination: newIndex });
        },
      });
    });
    return () => {
      cancelled = true;
      sortableRef.current?.destroy();
      sortableRef.current = null;
    };
  }, [handle]);

  return (
    <ol ref={ref} className={className} aria-label={label}>
      {children}
    </ol>
  );
}
