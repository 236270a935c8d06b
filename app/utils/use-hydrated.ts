/** Whether the page has hydrated: false in the server's HTML and the hydration render, true after. */
import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

/** Copy that only makes sense with JavaScript (it updates as the person chooses) renders once this is true. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
