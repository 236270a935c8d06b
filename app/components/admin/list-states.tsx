/**
 * The states of what an admin page loaded from the api: the load failed (null, said as an alert),
 * nothing to show, or the content itself. Admin pages render on the server with their data, so
 * there is no loading state to show: a navigation keeps the previous page until the data is there.
 */
import type { ReactNode } from 'react';

/** The load of this part of the page failed; the rest of the page stays usable. */
export function LoadFailed({ message }: { message: string }) {
  return (
    <p className="admin-error" role="alert">
      {message}
    </p>
  );
}

/** `items` as `children(items)`; `failed` when they did not load (null), `empty` when there are none. */
export function ListStates<T>({
  items,
  failed,
  empty,
  children,
}: {
  items: T[] | null;
  failed: string;
  empty: string;
  children: (items: T[]) => ReactNode;
}) {
  if (items === null) return <LoadFailed message={failed} />;
  if (items.length === 0) return <p>{empty}</p>;
  return <>{children(items)}</>;
}
