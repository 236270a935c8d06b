/*
 * Reminders by Web Push (docs/decisions/033-web-push-reminders.md), run in the service worker
 * (public/sw.js imports this file: scripts/build-sw.ts). It caches nothing: bus data is never
 * stored here.
 * - `push`: shows the reminder the server sent, JSON { title, body, url, tag, lang }
 *   (api/reminders/scheduler.ts ReminderNotification), and tells the open pages its tag.
 * - `notificationclick`: focuses a window of the site on the reminder's page (the home on its
 *   tab), or opens one.
 * - `pushsubscriptionchange`: the browser replaced the subscription; the reminders set on the old
 *   one move to the new one (PUT /reminders/subscription).
 */
self.addEventListener('push', (event) => {
  let message = null;
  try {
    message = event.data ? event.data.json() : null;
  } catch {
    message = null;
  }
  if (!message || typeof message.title !== 'string') return;
  event.waitUntil(
    (async () => {
      await self.registration.showNotification(message.title, {
        body: message.body,
        tag: message.tag,
        lang: message.lang,
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        data: { url: message.url },
      });
      // The open pages forget the reminder: their bell is free for the next bus (app/hooks/use-reminder.ts).
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const client of windows) client.postMessage({ shown: message.tag });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  if (url.origin !== self.location.origin) return; // only the site's own pages are opened
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === url.origin);
      if (!open) return self.clients.openWindow(url.href);
      const focused = await open.focus();
      return focused.navigate(url.href).catch(() => self.clients.openWindow(url.href));
    })(),
  );
});

self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(
    (async () => {
      const old = event.oldSubscription;
      // Without the old subscription (some browsers give none) its reminders cannot be found: they expire.
      if (!old) return;
      const renewed = event.newSubscription || (await self.registration.pushManager.subscribe(old.options));
      await fetch('/reminders/subscription', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ oldEndpoint: old.endpoint, subscription: renewed.toJSON() }),
      });
    })(),
  );
});
