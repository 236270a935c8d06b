/**
 * /ads/apply's action and the image: whatever its file name, sniffed by its bytes (here and at the
 * api), and up to 5 MB.
 */
import { AD_FORMAT_MESSAGES, AD_MESSAGES, IMAGE_MAX_BYTES } from '../../contract/ads';
import { GIF, JPEG, SVG, WEBP } from '../../tests/fixtures/images';
import { TINY_PNG } from '../../tests/setup/web-api';
import { adsApplyActionFor, form, WEB_FIELDS } from '../../tests/setup/ads-apply-action';

const { api, submit, added } = adsApplyActionFor();

describe('action', () => {
  it.each(['가게;로고.png', 'logo=v2.png', 'menu "final".png', 'a\\b.png', '메뉴 (1).png'])(
    'takes an image whatever its file name: %s',
    async (name) => {
      let answer: Awaited<ReturnType<typeof submit>> | undefined;
      const rows = await added(async () => {
        answer = await submit(form(WEB_FIELDS, new File([TINY_PNG], name, { type: 'image/png' })));
      });
      expect(answer?.submitted).toBe(true);
      expect(rows).toHaveLength(1);
    },
  );

  it.each([
    ['jpg', JPEG],
    ['gif', GIF],
  ] as const)('takes a %s image, stored under its sniffed type whatever the file says', async (extension, bytes) => {
    const rows = await added(() =>
      submit(form(WEB_FIELDS, new File([new Uint8Array(bytes)], 'ad.png', { type: 'image/png' }))),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].imageUrl).toMatch(new RegExp(`^/images/web-[0-9a-f-]{36}\\.${extension}$`));
    expect(await api().imageUpload(rows[0].imageUrl)).toMatchObject({ status: 'stored', byteSize: bytes.byteLength });
  });

  it.each([
    ['WebP', WEBP],
    ['SVG', SVG],
  ])('refuses a %s image with the image type message and no api call', async (_, bytes) => {
    const calls = api().calls.length;
    const { status, data } = await submit(form(WEB_FIELDS, new File([new Uint8Array(bytes)], 'ad.png')));
    expect(status).toBe(400);
    expect(data.result.error).toEqual({ image: [AD_FORMAT_MESSAGES.imageType] });
    expect(api().calls.length).toBe(calls);
  });

  it('refuses a text file named .png: 400 with the image type message, nothing stored, no api call', async () => {
    const text = new File(['<svg onload="alert(1)"></svg>'], 'ad.png', { type: 'image/png' });
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const calls = api().calls.length;
    const rows = await added(async () => {
      answer = await submit(form(WEB_FIELDS, text));
    });
    expect(answer?.status).toBe(400);
    expect(answer?.data.result.error).toEqual({ image: [AD_FORMAT_MESSAGES.imageType] });
    expect(answer?.data.result.initialValue).toMatchObject({ title: WEB_FIELDS.title, email: WEB_FIELDS.email });
    expect(rows).toEqual([]);
    expect(api().calls.length).toBe(calls);
  });

  it('says a non-image file is no image together with the other errors, not that the image is missing', async () => {
    const text = new File(['hello'], 'menu.txt', { type: 'text/plain' });
    const calls = api().calls.length;
    const { status, data } = await submit(form({ type: 'web', title: '모현 분식' }, text));
    expect(status).toBe(400);
    expect(data.result.error).toEqual({
      image: ['JPG, PNG, GIF 이미지만 올릴 수 있습니다.'],
      applicantName: [AD_MESSAGES.applicantName],
      applicantPhone: [AD_MESSAGES.applicantPhone],
      email: [AD_MESSAGES.email],
      duration: [AD_MESSAGES.duration],
    });
    expect(api().calls.length).toBe(calls);
  });

  it('refuses an image whose first bytes pass but which the api does not read as an image: 400, not 502', async () => {
    // PNG's first four bytes, then not a PNG: the web's sniff passes, the api's (file-type) does not.
    const fake = new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...new TextEncoder().encode('not really a png at all')]);
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const rows = await added(async () => {
      answer = await submit(form(WEB_FIELDS, new File([fake], 'ad.png', { type: 'image/png' })));
    });
    expect(answer?.status).toBe(400);
    expect(answer?.data.result.error).toEqual({ image: [AD_FORMAT_MESSAGES.imageType] });
    expect(answer?.data.result.initialValue).toMatchObject({ title: WEB_FIELDS.title });
    expect(rows).toEqual([]);
  });

  it('refuses an image of 5 MB + 1 byte with the size message, keeping the other typed fields', async () => {
    const big = new Uint8Array(IMAGE_MAX_BYTES + 1);
    big.set(TINY_PNG);
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const calls = api().calls.length;
    const rows = await added(async () => {
      answer = await submit(form(WEB_FIELDS, new File([big], 'big.png', { type: 'image/png' })));
    });
    expect(answer?.status).toBe(400);
    expect(answer?.data.result.error).toEqual({ image: [AD_FORMAT_MESSAGES.imageSize] });
    expect(answer?.data.result.initialValue).toEqual(WEB_FIELDS);
    expect(rows).toEqual([]);
    expect(api().calls.length).toBe(calls);
  });

  it('takes an image of exactly 5 MB', async () => {
    const max = new Uint8Array(IMAGE_MAX_BYTES);
    max.set(TINY_PNG);
    const rows = await added(() => submit(form(WEB_FIELDS, new File([max], 'max.png', { type: 'image/png' }))));
    expect(rows).toHaveLength(1);
    expect(await api().imageUpload(rows[0].imageUrl)).toMatchObject({ status: 'stored', byteSize: IMAGE_MAX_BYTES });
  });
});
