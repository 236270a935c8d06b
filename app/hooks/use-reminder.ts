/**
 * A card's reminder (docs/decisions/033-web-push-reminders.md): what this browser can do, and setting
 * and cancelling one through the page's own calls (POST /reminders, DELETE /reminders/{id}, GET
 * /reminders/key). A reminder needs JavaScript, a service worker with the Push API, and the
 * notification permission; iOS and iPadOS expose the Push API only to the app added to the Home
 * Screen. The reminders set from this browser are kept in localStorage while they may be pending
 * (the answer's pendingForSec), so every card (and a reload) shows the one already set. The answers are checked with the
 * contract's schemas, loaded when a rider first sets or cancels one (the home loads no schema library).
 */
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { Reminder } from '../../contract/reminders';
import type { ReminderLeadMin } from '../../contract/reminder-leads';
import type { Direction } from '../../contract/transit';
import { isIosSafari, isStandalone } from '~/utils/install';

/** localStorage key of the reminders set from this browser (Kept[], JSON). */
const STORAGE_KEY = 'campus-bus:reminders';

/** A reminder set from this browser, and when (ms since the epoch, this browser's clock) it is surely over. */
type Kept = Reminder & { forgetAt: number };

/**
 * What the bell can offer: `pending` before the page has run (the server's render, and a page
 * without JavaScript: it says what a reminder needs); `unsupported` (no Push API); `install`
 * (iOS outside the installed app); `denied` (notifications blocked for the site); `ready` (the
 * minutes to choose; `granted` once notifications are allowed); `set` (this route's reminder).
 */
export type BellState =
  | { kind: 'pending' | 'unsupported' | 'install' | 'denied' }
  | { kind: 'ready'; granted: boolean }
  | { kind: 'set'; reminder: Kept };

/** Why a set or cancel failed: the answer's status (0: no answer, or the browser refused to subscribe). */
export type ReminderFailure = { status: number };

let kept: Kept[] | null = null;
const listeners = new Set<() => void>();

/** The kept reminders not yet over. What this page wrote; anything else there is dropped. */
function readKept(): Kept[] {
  if (kept) return kept;
  let stored: unknown;
  try {
    stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
  } catch {
    stored = [];
  }
  kept = (Array.isArray(stored) ? (stored as Partial<Kept>[]) : []).filter(
    (reminder): reminder is Kept =>
      typeof reminder?.id === 'string' &&
      typeof reminder.routeNo === 'string' &&
      (reminder.direction === 'up' || reminder.direction === 'down') &&
      typeof reminder.leadMin === 'number' &&
      typeof reminder.forgetAt === 'number' &&
      reminder.forgetAt > Date.now(),
  );
  return kept;
}

function writeKept(next: Kept[]): void {
  kept = next;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // private mode or full storage: kept for this page only
  }
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const NONE: Kept[] = [];

/** How long (ms) the page waits for its service worker to be ready before it gives up on a set. */
const WORKER_READY_MS = 10_000;

/** Forgets the kept reminder `id` (it was sent, cancelled or is over). */
function forget(id: string): void {
  const now = readKept();
  if (now.some((r) => r.id === id)) writeKept(now.filter((r) => r.id !== id));
}

/**
 * Forgets a reminder once the service worker has shown it (public/sw-push.js posts its tag,
 * `reminder-{id}`, to the site's windows), and each kept one at its forgetAt.
 */
function useForgetting(reminders: readonly Kept[]): void {
  useEffect(() => {
    const worker = 'serviceWorker' in navigator ? navigator.serviceWorker : null;
    const shown = (event: MessageEvent) => {
      const tag = (event.data as { shown?: unknown } | null)?.shown;
      if (typeof tag === 'string' && tag.startsWith('reminder-')) forget(tag.slice('reminder-'.length));
    };
    worker?.addEventListener('message', shown);
    return () => worker?.removeEventListener('message', shown);
  }, []);
  useEffect(() => {
    if (reminders.length === 0) return;
    const next = reminders.reduce((earliest, r) => (r.forgetAt < earliest.forgetAt ? r : earliest));
    const timer = setTimeout(() => forget(next.id), Math.max(0, next.forgetAt - Date.now()));
    return () => clearTimeout(timer);
  }, [reminders]);
}

/** What this browser offers, read once mounted (never on the server). */
function browserSupport(): Exclude<BellState['kind'], 'set'> {
  if ('serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window) {
    return Notification.permission === 'denied' ? 'denied' : 'ready';
  }
  return isIosSafari(navigator.userAgent, navigator.maxTouchPoints) && !isStandalone() ? 'install' : 'unsupported';
}

/**
 * The reminder of `routeNo` in `direction`: the bell's state, and `set(leadMin)` and `cancel()`,
 * each resolving to null, or the failure (the card says it in words).
 */
export function useReminder(routeNo: string, direction: Direction) {
  const reminders = useSyncExternalStore(subscribe, readKept, () => NONE);
  useForgetting(reminders);
  const [support, setSupport] = useState<Exclude<BellState['kind'], 'set'>>('pending');
  const [granted, setGranted] = useState(false);
  useEffect(() => {
    setSupport(browserSupport());
    setGranted('Notification' in window && Notification.permission === 'granted');
  }, []);
  const reminder = reminders.find((r) => r.routeNo === routeNo && r.direction === direction);
  let state: BellState;
  if (support === 'pending') state = { kind: 'pending' };
  else if (reminder) state = { kind: 'set', reminder };
  else state = support === 'ready' ? { kind: 'ready', granted } : { kind: support };

  const set = useCallback(
    async (leadMin: ReminderLeadMin): Promise<ReminderFailure | null> => {
      if ((await Notification.requestPermission()) !== 'granted') {
        setSupport(browserSupport());
        return null; // the state says it: denied, or still to be allowed
      }
      setGranted(true);
      let subscription: PushSubscription;
      try {
        subscription = await pushSubscription();
      } catch {
        return { status: 0 };
      }
      const response = await send('/reminders', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ subscription: subscription.toJSON(), routeNo, direction, leadMin }),
      });
      if (response?.status !== 201) return { status: response?.status ?? 0 };
      const { ReminderSchema } = await import('../../contract/reminders');
      const parsed = ReminderSchema.safeParse(await response.json().catch(() => null));
      if (!parsed.success) return { status: 0 };
      const added: Kept = { ...parsed.data, forgetAt: Date.now() + parsed.data.pendingForSec * 1000 };
      writeKept([...readKept().filter((r) => !(r.routeNo === routeNo && r.direction === direction)), added]);
      return null;
    },
    [routeNo, direction],
  );

  const cancel = useCallback(async (): Promise<ReminderFailure | null> => {
    if (!reminder) return null;
    const response = await send(`/reminders/${encodeURIComponent(reminder.id)}`, { method: 'DELETE' });
    // 404: already sent or expired, so gone either way.
    if (response?.status !== 204 && response?.status !== 404) return { status: response?.status ?? 0 };
    forget(reminder.id);
    return null;
  }, [reminder]);

  return { state, set, cancel };
}

/**
 * This browser's push subscription for the site's VAPID key: the one it has, or a new one when it
 * has none or has one made with another key (the deployment's keys changed: the push services
 * would refuse it).
 * @throws when the service worker is not ready within WORKER_READY_MS, or the browser or the key fails.
 */
async function pushSubscription(): Promise<PushSubscription> {
  const registration = await Promise.race([
    navigator.serviceWorker.ready,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no service worker')), WORKER_READY_MS)),
  ]);
  const response = await send('/reminders/key', { headers: { accept: 'application/json' } });
  const { VapidKeySchema } = await import('../../contract/reminders');
  const { publicKey } = VapidKeySchema.parse(await response?.json());
  const existing = await registration.pushManager.getSubscription();
  if (existing && (keyOf(existing) ?? publicKey) === publicKey) return existing;
  await existing?.unsubscribe();
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey });
}

/** The VAPID key a subscription was made with, base64url (null when the browser does not say). */
function keyOf(subscription: PushSubscription): string | null {
  const key = subscription.options?.applicationServerKey;
  if (!key) return null;
  let binary = '';
  for (const byte of new Uint8Array(key)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** A same-origin call; null when the network failed. */
async function send(path: string, init: RequestInit): Promise<Response | null> {
  try {
    return await fetch(path, init);
  } catch {
    return null;
  }
}
