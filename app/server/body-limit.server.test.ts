/**
 * The per-route body caps: every form a person can fill to its fields' maximum, at the worst
 * encoding, fits its cap; nothing much larger does; and the 413 is a short page with the form's
 * message. (The edge applying them to real requests: tests/attack-bodies.test.ts.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { INQUIRY_CONTENT_MAX, INQUIRY_MESSAGES } from '../../contract/inquiries';
import { SKILL_MAX_BODY_BYTES } from '../../contract/skill';
import { ROUTE_NOS, STOP_NAMES } from '../../contract/transit';
import { bodyLimitOf, MULTIPART_MAX_BYTES, tooLargeAnswer } from '~/server/body-limit.server';
import { SITE_NAME } from '~/components/site-header';

/** The content types a browser's forms send. */
const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data; boundary=----x';
/** The urlencoded body a browser sends for `fields`. */
const urlencoded = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
/** The longest Korean text of `length` characters, with the honeypot fields' room. */
const korean = (length: number) => '가'.repeat(length);
const honeypot = { name__confirm: '', from__confirm: `inquiry.${Date.now()}.${'A'.repeat(43)}` };

describe('bodyLimitOf', () => {
  it('fits the inquiry form filled to its maximum in Korean, with line breaks sent as CRLF', () => {
    const limit = bodyLimitOf('/contact', FORM);
    const content = `${korean(999)}\r\n${korean(1000)}`; // 2,000 as the textarea counts them
    const body = urlencoded({ ...honeypot, content, email: `${'가'.repeat(64)}@${'x'.repeat(189)}` });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(limit.maxBytes);
    expect(limit.maxBytes).toBeLessThan(32 * 1024); // a few tens of KB, not megabytes
    expect(limit.message).toBe(INQUIRY_MESSAGES.contentTooLong);
    expect(INQUIRY_CONTENT_MAX).toBe(2000);
  });

  it('fits the sign-in, setup, notice, reject and reply forms filled to their maximum', () => {
    const cases: [string, Record<string, string>][] = [
      [
        '/admin-only/login',
        { username: korean(64), password: korean(1024), redirectTo: `/admin-only/${'가'.repeat(2030)}` },
      ],
      [
        '/admin-only/setup',
        { token: 'x'.repeat(200), username: 'a'.repeat(32), password: korean(128), passwordConfirm: korean(128) },
      ],
      [
        '/admin-only/notice',
        {
          enabled: 'on',
          title: korean(100),
          text: korean(2000),
          titleEn: korean(100),
          textEn: korean(2000),
          preset: '',
        },
      ],
      ['/admin-only/ads/web/confirm/3', { intent: 'reject', reason: korean(500) }],
      ['/admin-only/inquiries', { intent: 'reply', id: '2147483647', reply: korean(2000) }],
    ];
    for (const [path, fields] of cases) {
      expect(Buffer.byteLength(urlencoded(fields)), path).toBeLessThanOrEqual(bodyLimitOf(path, FORM).maxBytes);
    }
  });

  it('takes only multipart on the image forms at their cap: another body is capped at the text fields, in the text pool', () => {
    for (const path of ['/ads/apply', '/admin-only/ads/edit/web']) {
      expect(bodyLimitOf(path, MULTIPART), path).toMatchObject({ maxBytes: MULTIPART_MAX_BYTES, pool: 'image' });
      for (const other of [FORM, 'text/plain', undefined]) {
        expect(bodyLimitOf(path, other), `${path} ${other}`).toMatchObject({ maxBytes: 256 * 1024, pool: 'text' });
      }
    }
    expect(bodyLimitOf('/contact', MULTIPART).pool).toBe('text');
  });

  it('gives the image forms the image cap and room for their fields, the skill its 64 KB, and the rest 2 KB', () => {
    expect(bodyLimitOf('/ads/apply', MULTIPART).maxBytes).toBe(MULTIPART_MAX_BYTES);
    expect(bodyLimitOf('/admin-only/ads/edit/web', MULTIPART).maxBytes).toBe(MULTIPART_MAX_BYTES);
    expect(MULTIPART_MAX_BYTES).toBe(5 * 1024 * 1024 + 256 * 1024);
    expect(bodyLimitOf('/api/kakao/skill', FORM)).toMatchObject({ maxBytes: SKILL_MAX_BODY_BYTES, answer: 'json' });
    for (const path of ['/ads/impressions', '/admin-only/mail', '/admin-only/ads/web', '/', '/nope']) {
      expect(bodyLimitOf(path, FORM).maxBytes, path).toBe(2048);
    }
  });

  it("gives single fetch's `<path>.data` and a trailing slash their page's cap", () => {
    expect(bodyLimitOf('/contact.data', FORM)).toBe(bodyLimitOf('/contact', FORM));
    expect(bodyLimitOf('/contact/', FORM)).toBe(bodyLimitOf('/contact', FORM));
    expect(bodyLimitOf('/ads/apply.data', MULTIPART)).toBe(bodyLimitOf('/ads/apply', MULTIPART));
  });

  it('has a cap for every route whose action reads free text or a file (a new one must be added)', () => {
    // The route modules that read a form with a text area, a password or a file, in the module or
    // in a component of its own it imports (the shared field kit ~/components/forms offers them all).
    const withComponents = (file: string) => {
      const source = readFileSync(`app/routes/${file}`, 'utf8');
      const components = [...source.matchAll(/from '~\/components\/([\w/.-]+)'/g)]
        .map(([, name]) => name)
        .filter((name) => name !== 'forms')
        .map((name) => readFileSync(`app/components/${name}.tsx`, 'utf8'));
      return [source, ...components].join('\n');
    };
    const reading = readdirSync('app/routes')
      .filter((file) => !file.includes('.test.'))
      .filter((file) => /export async function action/.test(readFileSync(`app/routes/${file}`, 'utf8')))
      .filter((file) => /Textarea|type: 'password'|type="file"|arrayBuffer\(\)/.test(withComponents(file)));
    const pathOf = (file: string) =>
      `/${file
        .replace(/\.tsx?$/, '')
        .replace(/_\./g, '.')
        .replace(/\$type/, 'web')
        .split('.')
        .join('/')}`;
    expect(reading.map(pathOf).sort()).toEqual([
      '/admin-only/ads/edit/web',
      '/admin-only/ads/web/confirm/$id',
      '/admin-only/inquiries',
      '/admin-only/login',
      '/admin-only/notice',
      '/admin-only/setup',
      '/ads/apply',
      '/contact',
    ]);
    for (const file of reading) expect(bodyLimitOf(pathOf(file), FORM).maxBytes, file).toBeGreaterThan(2048);
    // The chatbot skill reads its raw body on its fast path, no route (ADR 024).
    expect(bodyLimitOf('/api/kakao/skill', FORM).maxBytes).toBe(64 * 1024);
  });
});

describe('bodyLimitOf: the admin forms of many fields', () => {
  it('takes the GBIS setup form at its longest, which is more than a small form', () => {
    const form = new URLSearchParams({ intent: 'save' });
    for (const routeNo of ROUTE_NOS) {
      form.set(`routes.${routeNo}.routeId`, '9'.repeat(12));
      form.set(`routes.${routeNo}.upStaOrder`, '999');
      for (const day of ['weekday', 'saturday', 'holiday']) {
        for (const field of ['first', 'last']) form.set(`routes.${routeNo}.timetable.${day}.${field}`, '29:59');
        for (const field of ['minHeadwayMin', 'maxHeadwayMin'])
          form.set(`routes.${routeNo}.timetable.${day}.${field}`, '240');
      }
    }
    STOP_NAMES.up.forEach((_, i) => form.set(`upStationIds[${i}]`, '9'.repeat(12)));
    STOP_NAMES.down.forEach((_, i) => form.set(`downStationIds[${i}]`, '9'.repeat(12)));
    form.set('terminusStationId', '9'.repeat(12));
    const bytes = Buffer.byteLength(form.toString());
    expect(bytes).toBeGreaterThan(bodyLimitOf('/admin-only/feed', FORM).maxBytes);
    expect(bytes).toBeLessThan(bodyLimitOf('/admin-only/gbis', FORM).maxBytes);
  });
});

describe('tooLargeAnswer', () => {
  it('is a short Korean page in the site’s look with the form’s message, sending back to the form by the browser’s Back', () => {
    const { contentType, body } = tooLargeAnswer(bodyLimitOf('/contact', FORM), '/contact');
    expect(contentType).toBe('text/html; charset=utf-8');
    expect(Buffer.byteLength(body)).toBeLessThan(2048);
    expect(body).toContain('<html lang="ko">');
    expect(body).toMatch(/<style>[^<]*background:#ffe4ef[^<]*<\/style>/);
    expect(body).toContain(`<a class="site" href="/">${SITE_NAME}</a>`);
    expect(body).toContain(INQUIRY_MESSAGES.contentTooLong);
    // Back keeps what was typed; the form's own link, which would open it empty, is the last resort.
    expect(body).toContain(
      '브라우저의 <strong>뒤로</strong> 버튼을 누르면 입력하신 내용이 그대로 남아 있는 양식으로 돌아갑니다.',
    );
    expect(body).toContain('<a href="/contact">양식을 다시 열어</a>');
    expect(tooLargeAnswer(bodyLimitOf('/contact', FORM), '/contact.data').body).toContain('<a href="/contact">양식을');
  });

  it('is in English on an English page of a public form, and Korean on the admin pages whatever is asked', () => {
    const contact = tooLargeAnswer(bodyLimitOf('/contact', FORM), '/contact', 'en').body;
    expect(Buffer.byteLength(contact)).toBeLessThan(2048);
    expect(contact).toContain('<html lang="en">');
    expect(contact).toContain('<a class="site" href="/">HUFS Bus</a>');
    expect(contact).toContain('<p>Your message can be up to 2,000 characters. Please shorten it.</p>');
    expect(contact).toContain('Press your browser’s <strong>Back</strong> button');
    expect(contact).toContain('<a href="/contact">open the form again</a>');
    expect(contact.replace(/<style>.*<\/style>/, '')).not.toMatch(/[\uac00-\ud7a3]/);
    const image = tooLargeAnswer(bodyLimitOf('/ads/apply', 'multipart/form-data; boundary=x'), '/ads/apply', 'en');
    expect(image.body).toContain('<p>Your ad application could not be sent. Images can be up to 5MB.</p>');
    // The admin pages have no English: their page stays Korean.
    expect(tooLargeAnswer(bodyLimitOf('/admin-only/inquiries', FORM), '/admin-only/inquiries', 'en').body).toContain(
      '<html lang="ko">',
    );
  });

  it('names the home page from a path of another shape, and escapes what it prints', () => {
    expect(tooLargeAnswer(bodyLimitOf('//evil.example/x', FORM), '//evil.example/x').body).toContain(
      '<a href="/">양식을',
    );
    expect(tooLargeAnswer(bodyLimitOf('/a"b', FORM), '/a"b').body).toContain('<a href="/">양식을');
    expect(tooLargeAnswer(bodyLimitOf('/a\\b', FORM), '/a\\b').body).toContain('<a href="/">양식을');
  });

  it('answers the skill in JSON', () => {
    expect(tooLargeAnswer(bodyLimitOf('/api/kakao/skill', FORM), '/api/kakao/skill')).toEqual({
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify({ message: `Request body over ${SKILL_MAX_BODY_BYTES} bytes` }),
    });
  });
});
