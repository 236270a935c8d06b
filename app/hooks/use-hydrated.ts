/** Whether the page has hydrated: false in the server's HTML and the hydration render, true after. */
import { startTransition, useEffect, useState } from 'react';

/**
 * Set once the page's hydration has committed (the root layout uses this hook, so every page sets
 * it): what mounts after it, on a client-side navigation, starts hydrated.
 */
let hydrated = false;

/**
 * Copy that only makes sense with JavaScript (it updates as the person chooses) renders once this
 * is true. The switch after hydration is a transition, which React renders in slices between the
 * browser's other work: not useSyncExternalStore's server snapshot, whose switch React renders at
 * once with everything below it, one long task on a phone (ADR 026).
 */
export function useHydrated(): boolean {
  const [isHydrated, setHydrated] = useState(hydrated);
  useEffect(() => {
    hydrated = true;
    if (!isHydrated) startTransition(() => setHydrated(true));
  }, [isHydrated]);
  return isHydrated;
}
