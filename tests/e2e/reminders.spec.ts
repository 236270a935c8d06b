/**
 * The reminder bell (docs/decisions/033-web-push-reminders.md) in Debian's Chromium against the
 * production build: what it says without JavaScript, on a browser without the Push API, with
 * notifications blocked, on iOS outside the installed app; a reminder set and cancelled with a
 * stubbed PushManager (the page's own calls reach the real api); and the service worker showing a
 * pushed reminder, delivered through the DevTools protocol as a push service would.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { expect, test, type Page } from './test';

/** A subscription the stubbed PushManager gives: an FCM endpoint (the api's allowlist) and real keys. */
function fakeSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/e2e-${randomBytes(8).toString('hex')}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

/** Replaces the service worker registration's PushManager with one that subscribes to `subscription`. */
async function stubPushManager(page: Page, subscription: ReturnType<typeof fakeSubscription>) {
  await page.addInitScript((json) => {
    let current: unknown = null;
    const made = { endpoint: json.endpoint, toJSON: () => json, unsubscribe: async () => true };
    Object.defineProperty(ServiceWorkerRegistration.prototype, 'pushManager', {
      get: () => ({
        getSubscription: async () => current,
        subscribe: async () => (current = made),
      }),
    });
  }, subscription);
}

/** The down tab's first bell, opened. */
async function openFirstBell(page: Page) {
  await page.goto('/?dir=down');
  const bell = page.locator('#bus-panel .bell').first();
  await bell.locator('summary').click();
  return bell;
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the bell says what a reminder needs', async ({ page }) => {
    const bell = await openFirstBell(page);
    await expect(bell.locator('.bell__panel')).toHaveText(
      '알림을 받으려면 JavaScript를 켜고 이 사이트의 알림을 허용해야 합니다.',
    );
  });
});

test('a browser without the Push API is told so, and offered nothing', async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as { PushManager?: unknown }).PushManager;
  });
  const bell = await openFirstBell(page);
  await expect(bell.locator('.bell__panel p').first()).toHaveText(
    '이 브라우저는 알림을 지원하지 않습니다. Chrome, Edge, Firefox, Samsung Internet 등에서 알림을 받을 수 있습니다.',
  );
  await expect(bell.getByRole('button')).toHaveCount(0);
});

test('blocked notifications are said, with where to allow them', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(Notification, 'permission', { get: () => 'denied' });
  });
  const bell = await openFirstBell(page);
  await expect(bell.locator('.bell__panel p').first()).toHaveText(
    '이 사이트의 알림이 차단되어 있습니다. 브라우저 설정에서 알림을 허용한 뒤 다시 시도해주세요.',
  );
});

test.describe('on an iPhone, in Safari', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  });
  test('the bell points to the installed app, with the steps to add it', async ({ page }) => {
    // Safari outside a Home Screen app exposes no Push API.
    await page.addInitScript(() => {
      delete (window as { PushManager?: unknown }).PushManager;
    });
    const bell = await openFirstBell(page);
    await expect(
      bell.getByText('iPhone과 iPad에서는 홈 화면에 추가한 앱에서만 알림을 받을 수 있습니다.'),
    ).toBeVisible();
    await expect(bell.locator('ol li')).toHaveCount(2);
  });
});

test('before notifications are allowed, the bell says the browser will ask', async ({ page }) => {
  await stubPushManager(page, fakeSubscription());
  const bell = await openFirstBell(page);
  await expect(bell.getByText('처음 설정할 때 브라우저가 알림 허용 여부를 묻습니다.')).toBeVisible();
});

test('with notifications allowed, a reminder is set, kept across a reload, and cancelled', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['notifications']);
  await stubPushManager(page, fakeSubscription());
  let bell = await openFirstBell(page);
  const summary = bell.locator('summary');
  const routeNo = (await summary.getAttribute('aria-label'))!.replace(/번 버스 알림$/, '');
  await expect(bell.getByText('버스가 캠퍼스에서 출발하기 몇 분 전에 알려드릴까요?')).toBeVisible();
  await expect(bell.getByText('처음 설정할 때')).toHaveCount(0); // already allowed: no word of the prompt
  const set = page.waitForResponse((response) => response.url().endsWith('/reminders'));
  await bell.getByRole('button', { name: '3분 전' }).click();
  expect((await set).status()).toBe(201);
  await expect(bell.locator('.bell__panel > p').first()).toHaveText('버스가 출발하기 3분 전에 알림을 보내드립니다.');
  await expect(summary).toBeFocused(); // the pressed button is gone: the focus is back on the bell
  await expect(summary).toHaveAttribute('aria-label', `${routeNo}번 버스 알림 (3분 전)`);

  bell = await openFirstBell(page);
  await expect(bell.locator('summary')).toHaveAttribute('aria-label', `${routeNo}번 버스 알림 (3분 전)`);
  const cancelled = page.waitForResponse((response) => /\/reminders\/[\w-]+$/.test(response.url()));
  await bell.getByRole('button', { name: '알림 취소' }).click();
  expect((await cancelled).status()).toBe(204);
  await expect(bell.getByRole('button', { name: '5분 전' })).toBeVisible();
  await expect(bell.locator('summary')).toHaveAttribute('aria-label', `${routeNo}번 버스 알림`);

  // Escape closes the panel and gives the focus back to the bell.
  await bell.getByRole('button', { name: '5분 전' }).focus();
  await page.keyboard.press('Escape');
  await expect(bell).not.toHaveAttribute('open', '');
  await expect(bell.locator('summary')).toBeFocused();
});

test('the service worker shows a pushed reminder, with the page its tap opens, and the bell is free again', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['notifications']);
  await stubPushManager(page, fakeSubscription());
  const bell = await openFirstBell(page);
  await bell.getByRole('button', { name: '5분 전' }).click();
  const summary = bell.locator('summary');
  await expect(summary).toHaveAttribute('aria-label', /\(5분 전\)$/);
  const id = await page.evaluate(() => JSON.parse(localStorage.getItem('campus-bus:reminders')!)[0].id as string);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const cdp = await context.newCDPSession(page);
  // The registration whose active worker controls this page (the browser may list other contexts'):
  // a push is delivered to it as a push service's would be.
  const { targetInfo } = await cdp.send('Target.getTargetInfo');
  const activated = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      const ours = versions.find(
        (version) => version.status === 'activated' && version.controlledClients?.includes(targetInfo.targetId),
      );
      if (ours) resolve(ours.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  const registrationId = await activated;
  const message = {
    title: '1150번 버스 알림',
    body: '1150번 버스가 약 5분 후 외대사거리에 도착합니다.',
    url: '/?dir=up',
    tag: `reminder-${id}`,
    lang: 'ko',
  };
  const deliver = () =>
    cdp.send('ServiceWorker.deliverPushMessage', {
      origin: new URL(page.url()).origin,
      registrationId,
      data: JSON.stringify(message),
    });
  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        lang: n.lang,
        data: n.data as unknown,
      })),
    );
  await deliver();
  await expect
    .poll(shown)
    .toEqual([{ title: message.title, body: message.body, tag: message.tag, lang: 'ko', data: { url: '/?dir=up' } }]);
  // Told by the worker, the page forgets the reminder: its bell offers the next bus again.
  await expect(summary).toHaveAttribute('aria-label', /번 버스 알림$/);
});
