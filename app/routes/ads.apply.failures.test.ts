/**
 * /ads/apply's action refusing bodies that are no form of its own, and answering an api that fails or
 * refuses (502, 503, 429) with the values kept.
 */
import { AD_MESSAGES, IMAGE_MAX_BYTES } from '../../contract/ads';
import { startWebApi, TINY_PNG } from '../../tests/setup/web-api';
import { adsApplyActionFor, form, WEB_FIELDS } from '../../tests/setup/ads-apply-action';

const { freshContext, submit, added } = adsApplyActionFor();

describe('action', () => {
  it('refuses a body that is no multipart form with 400, not 500: JSON, and a urlencoded form (the image form is multipart only)', async () => {
    const json = new Request('http://localhost/ads/apply', {
      method: 'POST',
      body: JSON.stringify(WEB_FIELDS),
      headers: { 'Content-Type': 'application/json' },
    });
    const refused = await submit(json);
    expect(refused.status).toBe(400);
    expect(refused.data.result.error).toEqual({ '': [AD_MESSAGES.submitFailed] });
    const urlencoded = await submit(
      new Request('http://localhost/ads/apply', { method: 'POST', body: new URLSearchParams(WEB_FIELDS) }),
    );
    expect(urlencoded.status).toBe(400);
    expect(urlencoded.data.result.error).toEqual({ '': [AD_MESSAGES.submitFailed] });
  });

  it('refuses a field the form does not have, or one of its fields sent twice, before parsing it', async () => {
    const extra = form(WEB_FIELDS, new File([TINY_PNG], 'a.png', { type: 'image/png' }));
    extra.append('admin', 'true');
    const twice = form(WEB_FIELDS, new File([TINY_PNG], 'a.png', { type: 'image/png' }));
    twice.append('title', 'again');
    for (const body of [extra, twice]) {
      const refused = await submit(body);
      expect(refused.status).toBe(400);
      expect(refused.data.result.error).toEqual({ '': [AD_MESSAGES.submitFailed] });
    }
  });

  it('refuses a malformed multipart body with 400', async () => {
    const request = new Request('http://localhost/ads/apply', {
      method: 'POST',
      body: '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nunterminated',
      headers: { 'Content-Type': 'multipart/form-data; boundary=b' },
    });
    const { status } = await submit(request);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });

  it('answers 502 with the docs/product.md §8 message and keeps the values when the api cannot be reached', async () => {
    const context = freshContext();
    context.api = { ...context.api, fetch: () => Promise.reject(new TypeError('fetch failed')) };
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const rows = await added(async () => {
      answer = await submit(form(WEB_FIELDS), context);
    });
    expect(answer?.status).toBe(502);
    expect(answer?.data.result.error).toEqual({ '': [AD_MESSAGES.submitFailed] });
    expect(answer?.data.result.initialValue).toEqual(WEB_FIELDS);
    expect(rows).toEqual([]);
  });

  it('answers 502 when the api answers 503 to the presign', async () => {
    const context = freshContext();
    const reach = context.api.fetch;
    context.api = {
      ...context.api,
      fetch: async (request) =>
        new URL(request.url).pathname === '/api/s3/presigned-url/image'
          ? Response.json({ message: 'Service Unavailable' }, { status: 503 })
          : reach(request),
    };
    const rows = await added(async () => {
      const { status, data } = await submit(form(WEB_FIELDS), context);
      expect(status).toBe(502);
      expect(data.result.error).toEqual({ '': [AD_MESSAGES.submitFailed] });
      expect(data.result.initialValue).toEqual(WEB_FIELDS);
    });
    expect(rows).toEqual([]);
  });

  it('answers 503 saying no more images can be taken for now, keeping the values, once the api’s image storage is full', async () => {
    // An api whose image storage holds one image: the first application fills it, the presign of the next answers 507.
    const full = await startWebApi({ imageStorageMaxBytes: TINY_PNG.byteLength });
    try {
      const context = full.context({ clientIp: '192.0.2.250' });
      expect((await submit(form(WEB_FIELDS), context)).submitted).toBe(true);
      const presigns = full.calls.length;
      const { status, data } = await submit(form({ ...WEB_FIELDS, title: '두 번째 가게' }), context);
      expect(full.calls.slice(presigns).map((request) => new URL(request.url).pathname)).toEqual([
        '/api/s3/presigned-url/image',
      ]);
      expect(status).toBe(503);
      expect(data.result.error).toEqual({
        '': [`${AD_MESSAGES.submitFailed} 지금은 이미지를 더 받을 수 없습니다. 잠시 후 다시 시도해주세요.`],
      });
      expect(data.result.initialValue).toEqual({ ...WEB_FIELDS, title: '두 번째 가게' });
      expect((await full.adApplications()).map((row) => row.title)).toEqual([WEB_FIELDS.title]);
    } finally {
      await full.close();
    }
  });

  it('answers 429 saying its pending applications hold the room once the address holds its images', async () => {
    const context = freshContext();
    const largest = new Uint8Array(IMAGE_MAX_BYTES);
    largest.set(TINY_PNG);
    const image = () => new File([largest], 'shop.png', { type: 'image/png' });
    // Five images at the 5 MB cap are the address's room (25 MB, ADR 027).
    for (let i = 0; i < 5; i++) expect((await submit(form(WEB_FIELDS, image()), context)).submitted).toBe(true);
    const answer = await submit(form(WEB_FIELDS, image()), context);
    expect(answer.status).toBe(429);
    expect(answer.data.result.error).toEqual({
      '': [
        `${AD_MESSAGES.submitFailed} 지금 쓰는 인터넷 연결에서 보낸 신청 가운데 검토를 기다리는 신청이 많아 더 받을 수 없습니다. ` +
          '앞선 신청이 검토된 뒤 다시 신청하거나, 문의하기로 알려주세요.',
      ],
    });
  });

  it('answers 429 asking to try again later once the api rate-limits the phone', async () => {
    const context = freshContext();
    for (let i = 0; i < 5; i++) expect((await submit(form(WEB_FIELDS), context)).submitted).toBe(true);
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const rows = await added(async () => {
      answer = await submit(form(WEB_FIELDS), context);
    });
    expect(answer?.status).toBe(429);
    const [message] = answer?.data.result.error?.[''] ?? [];
    expect(message).toContain(AD_MESSAGES.submitFailed);
    expect(message).toContain('잠시 후 다시 시도해주세요');
    expect(answer?.data.result.initialValue).toEqual(WEB_FIELDS);
    expect(rows).toEqual([]);
    // Another phone is not limited.
    expect((await submit(form(WEB_FIELDS))).submitted).toBe(true);
  });
});
