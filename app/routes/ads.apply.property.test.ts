/**
 * Property test of /ads/apply's action against the real api in-process (PGlite, local store):
 * thousands of random multipart submissions — random subsets of the fields, hostile strings,
 * valid and invalid choices, real and fake image bytes — never make it throw or answer 5xx, and
 * what it stores is always a valid application (re-parsed with the contract's own schema).
 */
import type { SubmissionResult } from '@conform-to/react';
import fc from 'fast-check';
import { action } from '~/routes/ads.apply';
import { AdApplicationSchema } from '../../contract/ads';
import { GIF, JPEG, SVG, WEBP } from '../../tests/fixtures/images';
import { propertyRuns } from '../../tests/setup/deep';
import { startWebApi, TINY_PNG, type WebApi } from '../../tests/setup/web-api';
import { isHttpUrl } from '../../contract/links';
import { isOneLine } from '../../contract/strings';

type ActionData = { result: SubmissionResult<string[]> };

// 2,000 submissions in the deep run, 500 in the loop (tests/setup/deep.ts).
const NUM_RUNS = propertyRuns({ loop: 500, deep: 2000 });
const SEED = 20240604;

let api: WebApi;
beforeAll(async () => {
  api = await startWebApi();
});
afterAll(() => api.close());

// --- strings ------------------------------------------------------------------------------------

const HOSTILE = [
  '',
  ' ',
  '\t\n\r ',
  '\u3000',
  '\u00a0',
  '\u200b',
  '\ufeff',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(document.cookie)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:image/png;base64,iVBORw0KGgo=',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  '//evil.example',
  'https:evil.example',
  'http://',
  'https://',
  '<script>alert(1)</script>',
  "'; DROP TABLE ad_requests; --",
  '${7*7}{{7*7}}',
  '\u202eexe.gnp',
  '👨‍👩‍👧‍👦',
  '한글 제목',
];
const hostileText = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 40, maxLength: 300 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 1000, maxLength: 20_000 }),
);
/** A plausible value, sometimes padded with (unicode) whitespace. */
const padded = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.constantFrom('', ' ', '\t', '\u3000', '\n'), value, fc.constantFrom('', ' ', '\u00a0', '\r\n'))
    .map(([before, text, after]) => `${before}${text}${after}`);
const plainText = (max: number) =>
  padded(
    fc
      .oneof(
        { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: max }), weight: 2 },
        { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: max }), weight: 2 },
        // Control characters no keyboard types (NUL, ESC, DEL, separators) inside ordinary text: refused.
        {
          arbitrary: fc
            .tuple(
              fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: max - 1 }),
              fc.constantFrom('\u0000', '\u0001', '\u001b', '\u007f', '\u2028', '\u202e', '\ufffe'),
            )
            .map(([text, control]) => `${text.slice(0, text.length >> 1)}${control}${text.slice(text.length >> 1)}`),
          weight: 1,
        },
      )
      .filter((text) => text.length <= max),
  );

// --- fields ------------------------------------------------------------------------------------

const OMIT = Symbol('omit');
type Maybe<T> = T | typeof OMIT;
/** A field that is valid-looking with weight `validWeight`, hostile, or absent. */
const field = (valid: fc.Arbitrary<string>, validWeight: number) =>
  fc.oneof(
    { arbitrary: valid, weight: validWeight },
    { arbitrary: hostileText, weight: 1 },
    { arbitrary: fc.constant<typeof OMIT>(OMIT), weight: 1 },
  );

const digits = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
const phone = fc.oneof(
  {
    arbitrary: fc
      .tuple(fc.constantFrom('010', '011', '016', '02', '031'), digits(3, 4), digits(4, 4))
      .map((parts) => parts.join('-')),
    weight: 5,
  },
  { arbitrary: digits(9, 11).map((rest) => `0${rest.slice(1)}`), weight: 5 },
  {
    arbitrary: fc.constantFrom(
      ' 010 1234 5678 ',
      '(010) 1234-5678',
      '+82 10-1234-5678',
      '０１０-１２３４-５６７８',
      '010.1234.5678',
      '010-1234-567８',
      '1012345678',
      '0',
      '01012345678901',
      '١٢٣٤٥٦٧٨٩٠',
    ),
    weight: 2,
  },
);
const email = fc.oneof(
  {
    arbitrary: fc
      .tuple(
        fc.string({
          unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789._+-'),
          minLength: 1,
          maxLength: 20,
        }),
        fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 1, maxLength: 12 }),
        fc.constantFrom('com', 'kr', 'co.kr', 'example'),
      )
      .map(([local, domain, tld]) => `${local}@${domain}.${tld}`),
    weight: 10,
  },
  { arbitrary: fc.emailAddress(), weight: 1 },
  {
    arbitrary: fc.constantFrom('a@b', '@example.com', 'owner@example.com<script>', 'owner@예시.한국', 'a@b.c'),
    weight: 1,
  },
);
const redirectUrl = fc.oneof(
  fc.webUrl(),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    'HTTPS://SHOP.EXAMPLE/MENU',
    'http://localhost:3000/',
    'https://xn--9n2bp8q.example/',
    'ftp://x.example',
  ),
);
const adType = fc.oneof(
  { arbitrary: fc.constantFrom('web', 'kakao'), weight: 10 },
  { arbitrary: fc.constantFrom('WEB', 'banner', ' web', 'web\u0000', 'kakao,web'), weight: 1 },
);
const duration = fc.oneof(
  { arbitrary: fc.constantFrom('1', '2', '3'), weight: 10 },
  { arbitrary: fc.constantFrom(' 2 ', '02', '2e0', '0x3', '0', '4', '-1', '1.5', 'abc', 'NaN', 'Infinity'), weight: 2 },
);

// --- the image -----------------------------------------------------------------------------------

const bytes = (max: number) => fc.uint8Array({ maxLength: max });
const withHeader = (header: number[]) => bytes(600).map((tail) => new Uint8Array([...header, ...tail]));
const imageBytes = fc.oneof(
  { arbitrary: fc.constant(TINY_PNG), weight: 20 },
  { arbitrary: fc.constantFrom(new Uint8Array(JPEG), new Uint8Array(GIF)), weight: 10 },
  { arbitrary: fc.constantFrom(new Uint8Array(WEBP), new Uint8Array(SVG)), weight: 1 },
  { arbitrary: bytes(200).map((tail) => new Uint8Array([...TINY_PNG, ...tail])), weight: 1 },
  { arbitrary: withHeader([0x89, 0x50, 0x4e, 0x47]), weight: 1 },
  { arbitrary: withHeader([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), weight: 1 },
  { arbitrary: withHeader([0xff, 0xd8, 0xff]), weight: 2 },
  { arbitrary: withHeader([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]), weight: 2 },
  { arbitrary: withHeader([0x47, 0x49, 0x46, 0x38]), weight: 1 },
  { arbitrary: bytes(600), weight: 1 },
  { arbitrary: fc.constant(new Uint8Array()), weight: 1 },
  {
    arbitrary: fc
      .constantFrom('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'GIF', 'hello')
      .map((text) => new TextEncoder().encode(text)),
    weight: 1,
  },
);
const fileName = fc.oneof(
  fc.constantFrom('ad.png', 'ad.jpg', 'ad.gif', 'ad.PNG', 'ad.svg', 'ad.png.exe', '../../etc/passwd', '', '광고.png'),
  fc.string({ maxLength: 30 }),
);
const contentType = fc.constantFrom(
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/svg+xml',
  'text/html',
  '',
  'application/octet-stream',
);
type ImagePart = { kind: 'file'; bytes: Uint8Array; name: string; type: string } | { kind: 'text'; value: string };
const image: fc.Arbitrary<Maybe<ImagePart>> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constant('file' as const), bytes: imageBytes, name: fileName, type: contentType }),
    weight: 12,
  },
  { arbitrary: hostileText.map((value) => ({ kind: 'text' as const, value })), weight: 1 },
  { arbitrary: fc.constant<typeof OMIT>(OMIT), weight: 1 },
);

/** A form: mostly plausible (each field valid with high weight) or chaotic (each field a coin toss). */
const submissionArbitrary = fc
  .oneof({ arbitrary: fc.constant(40), weight: 4 }, { arbitrary: fc.constant(1), weight: 1 })
  .chain((validWeight) =>
    fc.record({
      type: field(adType, validWeight),
      title: field(plainText(50), validWeight),
      applicantName: field(plainText(30), validWeight),
      applicantPhone: field(phone, validWeight),
      email: field(padded(email), validWeight),
      redirectUrl: field(padded(redirectUrl), validWeight),
      contentForManager: field(plainText(300), validWeight),
      duration: field(duration, validWeight),
      content: field(plainText(230), validWeight),
      image,
      ip: fc.ipV4(),
    }),
  );
type Generated = typeof submissionArbitrary extends fc.Arbitrary<infer T> ? T : never;

function formOf(generated: Generated): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(generated)) {
    if (value === OMIT || name === 'image' || name === 'ip') continue;
    data.append(name, value as string);
  }
  const part = generated.image;
  if (part !== OMIT) {
    if (part.kind === 'text') data.append('image', part.value);
    else data.append('image', new File([part.bytes as Uint8Array<ArrayBuffer>], part.name, { type: part.type }));
  }
  return data;
}

describe('POST /ads/apply (property)', () => {
  it(`never fails with 5xx and stores only valid applications (${NUM_RUNS} random submissions)`, async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let successes = 0;
    let lastId = 0;
    const statuses = new Map<number, number>();

    await fc.assert(
      fc.asyncProperty(submissionArbitrary, async (generated) => {
        const request = new Request('http://localhost/ads/apply', {
          method: 'POST',
          body: formOf(generated),
          headers: { 'X-Forwarded-For': generated.ip },
        });
        const response = await action({ request, context: api.context({ clientIp: generated.ip }), params: {} });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status).toBeLessThan(500);
        const added = await api.adApplications(lastId);

        if (response.status !== 303) {
          const data = (await response.json()) as ActionData;
          // A refusal always says why (a field message or the form's).
          expect(
            Object.values(data.result.error ?? {})
              .flat()
              .filter(Boolean),
          ).not.toEqual([]);
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(data.result.status).toBe('error');
          expect(added).toEqual([]);
          return;
        }
        successes += 1;
        expect(response.headers.get('Location')).toBe('/ads/apply?submitted=1');
        expect(added).toHaveLength(1);
        const [row] = added;
        lastId = row.id;

        const reparsed = AdApplicationSchema.safeParse({
          type: row.type,
          title: row.title,
          applicantName: row.applicantName,
          applicantPhone: row.applicantPhone,
          applicantEmail: row.applicantEmail,
          redirectUrl: row.redirectUrl ?? undefined,
          imageUrl: row.imageUrl,
          contentForManager: row.contentForManager ?? undefined,
          duration: row.duration,
          confirmed: false,
          content: row.content ?? undefined,
        });
        expect(reparsed.error?.issues ?? []).toEqual([]);
        expect(row).toMatchObject({ status: 'pending', confirmed: false });
        expect(row.applicantPhone).toMatch(/^\d+$/);
        expect(row.redirectUrl === null || isHttpUrl(row.redirectUrl)).toBe(true);
        for (const text of [row.title, row.applicantName, row.applicantEmail]) {
          expect(text.trim()).toBe(text);
          expect(text).not.toBe('');
          // One line: nothing that could add a line to an e-mail or turn the words around it.
          expect(isOneLine(text)).toBe(true);
        }
        for (const text of [row.contentForManager, row.content]) {
          // eslint-disable-next-line no-control-regex -- matching control characters is the point
          expect(text ?? '').not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
        }
        if (row.type === 'kakao') expect(row.content?.trim()).toBeTruthy();
        else expect(row.content).toBeNull();
        expect(await api.imageUpload(row.imageUrl)).toMatchObject({ status: 'stored', adType: row.type });
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );

    expect(await api.adApplications()).toHaveLength(successes);
    // The generator must reach the api's store often enough to mean something.
    expect(successes).toBeGreaterThan(NUM_RUNS / 10);
    expect([...statuses.keys()].every((status) => [303, 400, 413, 429].includes(status))).toBe(true);
  }, 180_000);
});
