/**
 * /ads/apply's loader and action tests (app/routes/ads.apply.*.test.ts) against the real api
 * in-process (PGlite, local store): the docs/product.md §7 hand-off (presign, PUT, submit) really
 * runs, and what the api stored is read back.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import type { SubmissionResult } from '@conform-to/react';
import type { AppLoadContext } from '@remix-run/node';
import { action } from '~/routes/ads.apply';
import { TINY_PNG, webApiFor } from './web-api';

type ActionData = { result: SubmissionResult<string[]> };

export const WEB_FIELDS = {
  type: 'web',
  title: '캠퍼스 카페',
  applicantName: '홍길동',
  applicantPhone: '010-1234-5678',
  email: 'owner@example.com',
  redirectUrl: 'https://cafe.example.com/menu',
  contentForManager: '입금자명: 홍길동',
  duration: '2',
};

export function form(
  fields: Record<string, string>,
  image: File | null = new File([TINY_PNG], 'ad.png', { type: 'image/png' }),
) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (image) data.append('image', image);
  return data;
}

/**
 * Registers, for the file, the real api in-process (webApiFor) and console.error silenced in each
 * test (the action logs the failures the tests cause). Returns the helpers.
 */
export function adsApplyActionFor() {
  const api = webApiFor();
  let ipCounter = 0;
  /** A load context on the real api with its own client IP, so rate limits never leak between tests. */
  const freshContext = (overrides: Partial<AppLoadContext> = {}) =>
    api().context({ clientIp: `192.0.2.${++ipCounter}`, ...overrides });

  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  async function submit(body: FormData | Request, context: AppLoadContext = freshContext()) {
    const request =
      body instanceof Request ? body : new Request('http://localhost/ads/apply', { method: 'POST', body });
    const response = await action({ request, context, params: {} });
    // A taken application redirects (post/redirect/get) to the page with the success message.
    const submitted = response.status === 303 && response.headers.get('Location') === '/ads/apply?submitted=1';
    return {
      status: response.status,
      submitted,
      data: (submitted ? { result: {} } : await response.json()) as ActionData,
    };
  }

  /** Runs `run` and returns the ad applications it added. */
  async function added(run: () => Promise<unknown>) {
    const before = (await api().adApplications()).length;
    await run();
    return (await api().adApplications()).slice(before);
  }

  return { api, freshContext, submit, added };
}
