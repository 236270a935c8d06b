/**
 * /contact's loader and action against the real api in-process (PGlite): what the api stored is
 * read back through its admin list, the honeypot is filled in as the page renders it, and the page
 * is server-rendered from what the action answered. The docs/product.md §5, §8 messages are written out here.
 */
import type { AppLoadContext } from '@remix-run/node';
import Contact from '~/routes/contact';
import { honeypotFields } from '~/utils/honeypot.server';
import { interceptingContext } from '../../tests/setup/admin-web';
import { contactForm, type ActionData } from '../../tests/setup/contact-form';
import { renderRoute } from '../../tests/setup/render-route';

const TOKEN = 'test-service-token-for-contact';
const SENT = '문의가 접수되었습니다.';
const FAILED = '문의 전송에 실패했습니다.';
const EMPTY = '문의 내용을 입력해주세요';
const TOO_LONG = '문의 내용은 2,000자까지 쓸 수 있습니다. 조금 줄여주세요.';
const BAD_EMAIL = '이메일 형식이 올바르지 않습니다.';
const SEND_AGAIN = '페이지가 오래되어 새로 불러왔습니다. 한 번 더 보내주세요.';
const RATE_LIMITED = '짧은 시간에 문의를 여러 번 보내셨습니다. 잠시 후 다시 보내주세요.';

const { freshContext, loaderData, form, submit, send, stored, inquiryCalls } = contactForm(TOKEN);

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('loader', () => {
  it('answers the honeypot inputs: the field names and a token signed for this form', async () => {
    const { honeypot } = await loaderData(freshContext());
    expect(honeypot).toEqual({
      nameField: 'name__confirm',
      tokenField: 'from__confirm',
      token: expect.stringMatching(/^inquiry\.\d+\.[\w-]{43}$/),
    });
  });
});

describe('action', () => {
  it('sends the inquiry to the api (trimmed, with the e-mail) and redirects to the success message', async () => {
    const calls = await inquiryCalls(async () => {
      const answer = await send({
        content: '  1117번이 지도에 안 보여요.\r\n확인해주세요. ',
        email: ' me@example.com ',
      });
      expect(answer).toMatchObject({ status: 303, sent: true });
    });
    expect(calls).toHaveLength(1);
    expect(await calls[0].json()).toEqual({
      content: '1117번이 지도에 안 보여요.\n확인해주세요.',
      email: 'me@example.com',
      locale: 'ko',
    });
    expect((await stored())[0]).toMatchObject({
      content: '1117번이 지도에 안 보여요.\n확인해주세요.',
      email: 'me@example.com',
    });

    await send({ content: '이메일 없는 제안', email: '' });
    expect((await stored())[0]).toMatchObject({ content: '이메일 없는 제안', email: null });
  });

  it("refuses empty and whitespace-only content with the spec's message, calling nothing", async () => {
    const calls = await inquiryCalls(async () => {
      for (const content of ['', '   ', '\r\n\t  \r\n']) {
        const answer = await send({ content, email: 'me@example.com' });
        expect(answer.status).toBe(400);
        expect(answer.data?.result.error).toEqual({ content: [EMPTY] });
      }
      const missing = await send({ email: 'me@example.com' });
      expect(missing.data?.result.error).toEqual({ content: [EMPTY] });
    });
    expect(calls).toEqual([]);
  });

  it('refuses 2,001 characters and takes 2,000 (line breaks, sent as CRLF, count once)', async () => {
    const tooLong = await send({ content: 'a'.repeat(2001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.data?.result.error).toEqual({ content: [TOO_LONG] });
    // What was typed comes back to the form, never more than the field holds (a flood is not echoed).
    expect(tooLong.data?.result.initialValue?.content).toBe('a'.repeat(2000));
    const flood = await send({ content: 'a'.repeat(20_000), email: 'x'.repeat(5000) });
    expect(flood.data?.result.initialValue).toMatchObject({ content: 'a'.repeat(2000), email: 'x'.repeat(254) });
    // Line breaks come back as one character each, as the textarea counts them: 2,000 typed with
    // CRLFs and a bad e-mail keep all 2,000.
    const typed = `${'d'.repeat(99)}\r\n`.repeat(20).trimEnd();
    const kept = await send({ content: typed, email: 'me@' });
    expect(kept.data?.result.initialValue?.content).toBe(typed.replaceAll('\r\n', '\n'));

    expect(await send({ content: 'b'.repeat(2000) })).toMatchObject({ status: 303, sent: true });
    const lines = `${'c'.repeat(99)}\r\n`.repeat(20).trimEnd();
    expect(await send({ content: lines })).toMatchObject({ status: 303, sent: true });
    const [withBreaks, full] = await stored();
    expect(withBreaks.content).toBe(`${'c'.repeat(99)}\n`.repeat(20).trimEnd());
    expect(full.content).toBe('b'.repeat(2000));
  });

  it('refuses a malformed e-mail, keeping the text', async () => {
    const answer = await send({ content: '답장 부탁드려요', email: 'me@' });
    expect(answer.status).toBe(400);
    expect(answer.data?.result.error).toEqual({ email: [BAD_EMAIL] });
    expect(answer.data?.result.initialValue).toMatchObject({ content: '답장 부탁드려요', email: 'me@' });
  });

  it('refuses a line break in the e-mail (one line, as every one-line field) and a NUL in the text, echoing neither, calling nothing', async () => {
    const calls = await inquiryCalls(async () => {
      const answer = await send({
        content: '문의\u0000 내용\n둘째 줄',
        email: 'me@example.com\r\nBcc: them@example.com\u0000',
      });
      expect(answer.status).toBe(400);
      expect(answer.data?.result.error).toEqual({
        content: ['입력할 수 없는 문자가 들어 있습니다.'],
        email: ['이메일에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.'],
      });
      expect(JSON.stringify(answer.data)).not.toContain('\\u0000');
      expect(answer.data?.result.initialValue).toMatchObject({
        content: '문의 내용\n둘째 줄',
        email: 'me@example.com\nBcc: them@example.com',
      });
      const page = await renderRoute(Contact, {
        path: '/contact',
        url: '/contact',
        loaderData: { honeypot: { nameField: 'name__confirm', tokenField: 'from__confirm', token: 'x' } },
        actionData: answer.data!,
      });
      expect(page.documentElement.outerHTML).not.toContain('\u0000');
      expect(page.querySelector('textarea[name="content"]')?.textContent).toBe('문의 내용\n둘째 줄');
    });
    expect(calls).toEqual([]);
  });

  describe('honeypot: a bot (the hidden field filled) is answered like a person and nothing is stored', () => {
    const bots: [string, Record<string, string>][] = [
      ['the hidden field filled', { name__confirm: 'Bot' }],
      ['the hidden field filled and the token forged', { name__confirm: 'Bot', from__confirm: 'inquiry.1.forged' }],
    ];
    for (const [what, honeypot] of bots) {
      it(what, async () => {
        const context = freshContext();
        const body = await form({ content: '스팸' }, context, honeypot);
        const before = (await stored()).length;
        const calls = await inquiryCalls(async () => {
          expect(await submit(body, context)).toMatchObject({ status: 303, sent: true });
        });
        expect(calls).toEqual([]);
        expect(await stored()).toHaveLength(before);
        expect(console.warn).toHaveBeenCalledWith('[contact] a post caught by the honeypot was dropped.');
      });
    }
  });

  describe('honeypot: a form whose token does not pass gets the failure, the text kept, and a fresh form', () => {
    const stale: [string, (context: AppLoadContext) => Promise<FormData>][] = [
      [
        'a form rendered under another SESSION_SECRET (rotated since)',
        (context) =>
          form(
            { content: '오래 열어 둔 문의', email: 'me@example.com' },
            { ...context, admin: { ...context.admin!, sessionSecret: 'y'.repeat(64) } },
          ),
      ],
      [
        'the token forged',
        (context) =>
          form({ content: '오래 열어 둔 문의', email: 'me@example.com' }, context, {
            from__confirm: `inquiry.${Date.now()}.${'A'.repeat(43)}`,
          }),
      ],
      [
        'a token of another form',
        (context) =>
          form({ content: '오래 열어 둔 문의', email: 'me@example.com' }, context, {
            from__confirm: honeypotFields(context, 'ad-application').token,
          }),
      ],
      [
        'a post without the honeypot fields',
        async () => {
          const data = new FormData();
          data.set('content', '오래 열어 둔 문의');
          data.set('email', 'me@example.com');
          return data;
        },
      ],
    ];
    for (const [what, build] of stale) {
      it(what, async () => {
        const context = freshContext();
        const body = await build(context);
        const before = (await stored()).length;
        const calls = await inquiryCalls(async () => {
          const answer = await submit(body, context);
          expect(answer.status).toBe(400);
          expect(answer.data?.result.error).toEqual({ '': [FAILED, SEND_AGAIN] });
          expect(answer.data?.result.initialValue).toMatchObject({
            content: '오래 열어 둔 문의',
            email: 'me@example.com',
          });
        });
        expect(calls).toEqual([]);
        expect(await stored()).toHaveLength(before);
        expect(console.warn).toHaveBeenCalledWith(
          '[contact] a post whose honeypot token did not pass was refused:',
          expect.any(String),
        );

        // The page comes back with a fresh form (the loader runs after the action): sent as it is, it is taken.
        expect(await send({ content: '오래 열어 둔 문의' }, context)).toMatchObject({ status: 303, sent: true });
        expect((await stored())[0].content).toBe('오래 열어 둔 문의');
      });
    }
  });

  describe('honeypot: the key', () => {
    it('a form rendered by another web instance with the same SESSION_SECRET passes', async () => {
      const renderedBy = freshContext();
      const body = await form({ content: '다른 인스턴스가 그린 폼' }, renderedBy);
      const checkedBy = freshContext({ admin: { ...renderedBy.admin!, secureCookie: true } });
      expect(await submit(body, checkedBy)).toMatchObject({ status: 303, sent: true });
      expect((await stored())[0].content).toBe('다른 인스턴스가 그린 폼');
    });

    it('without SESSION_SECRET (tests only), a key of the process serves', async () => {
      const context = freshContext({ admin: undefined });
      expect(await send({ content: '기본 시드' }, context)).toMatchObject({ status: 303, sent: true });
      expect((await stored())[0].content).toBe('기본 시드');
    });
  });

  it("shows the spec's failure and keeps the text when the api is down or fails (5xx)", async () => {
    const failures: [string, (request: Request) => Response][] = [
      [
        'unreachable',
        () => {
          throw new TypeError('fetch failed');
        },
      ],
      ['500', () => Response.json({ message: 'Internal server error' }, { status: 500 })],
      ['503', () => new Response('Service Unavailable', { status: 503 })],
    ];
    for (const [what, fail] of failures) {
      const context = interceptingContext(freshContext(), (request, url) =>
        url.pathname === '/api/inquiries' ? fail(request) : undefined,
      );
      const answer = await send({ content: `지워지면 안 되는 긴 문의 (${what})`, email: 'me@example.com' }, context);
      expect(answer.status, what).toBe(502);
      expect(answer.data?.result.error).toEqual({ '': [FAILED, '잠시 후 다시 보내주세요.'] });
      expect(answer.data?.result.initialValue).toMatchObject({
        content: `지워지면 안 되는 긴 문의 (${what})`,
        email: 'me@example.com',
      });
    }
  });

  it('over the api’s limit (5 in 15 minutes per phone): the failure and a sentence to try later, the text kept', async () => {
    const context = freshContext();
    for (let i = 0; i < 5; i += 1) {
      expect(await send({ content: `문의 ${i}` }, context)).toMatchObject({ status: 303, sent: true });
    }
    const limited = await send({ content: '여섯 번째 문의' }, context);
    expect(limited.status).toBe(429);
    expect(limited.data?.result.error).toEqual({ '': [FAILED, RATE_LIMITED] });
    expect(limited.data?.result.initialValue).toMatchObject({ content: '여섯 번째 문의' });
  });
});

describe('page', () => {
  const honeypot = { nameField: 'name__confirm', tokenField: 'from__confirm', token: 'x' };
  const render = (url: string, actionData?: ActionData) =>
    renderRoute(Contact, { path: '/contact', url, loaderData: { honeypot }, actionData });

  it('after the redirect: the success message in a status region and an empty form', async () => {
    const page = await render('/contact?sent=1');
    expect(page.querySelector('[role="status"]')?.textContent).toBe(SENT);
    const content = page.querySelector('textarea[name="content"]') as HTMLTextAreaElement;
    expect(content.textContent).toBe('');
    expect((page.querySelector('input[name="email"]') as HTMLInputElement).getAttribute('value')).toBeNull();
  });

  it('a fresh form: labelled fields, a 2,000-character cap, the hint read with the textarea, the honeypot hidden', async () => {
    const page = await render('/contact');
    expect(page.querySelector('h1')?.textContent).toBe('문의하기');
    expect(page.querySelector('a[href="/privacypolicy"]')).not.toBeNull();
    expect(page.querySelector('[role="status"]')?.textContent).toBe('');
    const content = page.querySelector('textarea[name="content"]')!;
    expect(content.getAttribute('maxlength')).toBe('2000');
    expect(page.querySelector(`label[for="${content.id}"]`)?.textContent).toBe('문의 내용');
    const hint = page.getElementById(content.getAttribute('aria-describedby')!.split(' ')[0]);
    expect(hint?.textContent).toBe('2,000자까지 쓸 수 있습니다.');
    const email = page.querySelector('input[name="email"]')!;
    expect(email.getAttribute('type')).toBe('email');
    expect(page.querySelector(`label[for="${email.id}"]`)?.textContent).toBe('이메일 (선택)');
    const trap = page.querySelector('input[name="name__confirm"]')!;
    expect(trap.closest('[aria-hidden="true"]')?.hasAttribute('hidden')).toBe(true);
    expect(trap.getAttribute('tabindex')).toBe('-1');
  });

  it('after a failure: the failure in an alert and the text still in the form', async () => {
    const page = await render('/contact', {
      result: {
        status: 'error',
        initialValue: { content: '지워지면 안 되는 문의', email: 'me@example.com' },
        error: { '': [FAILED, RATE_LIMITED] },
      },
    });
    expect(page.querySelector('[role="alert"]')?.textContent).toBe(
      `${FAILED}${RATE_LIMITED} 입력하신 내용은 그대로 남아 있습니다.`,
    );
    expect(page.querySelector('textarea[name="content"]')?.textContent).toBe('지워지면 안 되는 문의');
    expect(page.querySelector('input[name="email"]')?.getAttribute('value')).toBe('me@example.com');
  });

  it('after a stale form: the failure, the sentence to send again, and the text still in the form', async () => {
    const page = await render('/contact', {
      result: {
        status: 'error',
        initialValue: { content: '오래 열어 둔 문의' },
        error: { '': [FAILED, SEND_AGAIN] },
      },
    });
    expect(page.querySelector('[role="alert"]')?.textContent).toBe(
      `${FAILED}${SEND_AGAIN} 입력하신 내용은 그대로 남아 있습니다.`,
    );
    expect(page.querySelector('textarea[name="content"]')?.textContent).toBe('오래 열어 둔 문의');
    expect(page.querySelector('[role="status"]')?.textContent).toBe('');
  });

  it("after an empty post: the spec's message with the field, linked from the summary", async () => {
    const page = await render('/contact', {
      result: { status: 'error', initialValue: { content: '' }, error: { content: [EMPTY] } },
    });
    const content = page.querySelector('textarea[name="content"]')!;
    expect(content.getAttribute('aria-invalid')).toBe('true');
    const errorId = content
      .getAttribute('aria-describedby')!
      .split(' ')
      .find((id) => id.endsWith('-error'))!;
    expect(page.getElementById(errorId)?.textContent).toBe(EMPTY);
    const summary = page.querySelector('[role="alert"]')!;
    expect(summary.querySelector(`a[href="#${content.id}"]`)?.textContent).toBe(EMPTY);
  });
});
