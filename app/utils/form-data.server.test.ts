import { z } from 'zod';
import { freeText, oneLineText, TEXT_MESSAGES } from '../../contract/strings';
import { parseForm, readForm, readUploadForm, serialIdOf, type FormSpec } from '~/utils/form-data.server';

describe('serialIdOf', () => {
  it('reads the decimal ids of a PostgreSQL serial', () => {
    expect(serialIdOf('1')).toBe(1);
    expect(serialIdOf('2147483647')).toBe(2147483647);
  });

  it.each(['', '0', '007', '-1', '1e3', '0x7', '1.0', ' 1', '12345678901', null, undefined])('refuses %j', (value) =>
    expect(serialIdOf(value)).toBeNull(),
  );

  it('refuses a file where an id should be', () => {
    expect(serialIdOf(new File(['1'], '1'))).toBeNull();
  });
});

describe('readForm', () => {
  const Schema = z.object({
    title: z.string().max(50),
    tags: z.array(z.string()),
    routes: z.object({ a: z.string() }),
  });
  const fields: FormSpec = { schema: Schema, also: ['intent'], repeated: ['order'] };
  const post = (body: string, contentType = 'application/x-www-form-urlencoded') =>
    new Request('http://localhost/form', { method: 'POST', body, headers: { 'Content-Type': contentType } });

  beforeEach(() => void vi.spyOn(console, 'warn').mockImplementation(() => undefined));
  afterEach(() => vi.restoreAllMocks());

  it("takes the schema's fields (nested, a list's items), the hidden ones, and a repeating one", async () => {
    const form = await readForm(post('title=a&tags[0]=x&tags[1]=y&routes.a=1&intent=save&order=1&order=2'), fields);
    expect(form && [...form.keys()]).toEqual(['title', 'tags[0]', 'tags[1]', 'routes.a', 'intent', 'order', 'order']);
  });

  it.each([
    ['a field the form does not have', 'title=a&admin=1', /unknown field "admin"/],
    ['a one-value field sent twice', 'title=a&title=b', /field "title" sent 2 times/],
    ['a hidden field sent twice', 'intent=a&intent=b', /field "intent" sent 2 times/],
    ['a list longer than 100', Array.from({ length: 101 }, (_, i) => `order=${i}`).join('&'), /"order" sent 101 times/],
    ['a list item past the 100th', 'tags[99999999]=x', /"tags\[99999999\]" past the list's 100 items/],
  ])('refuses %s, logging why', async (_case, body, reason) => {
    expect(await readForm(post(body), fields)).toBeNull();
    expect(console.warn).toHaveBeenCalledWith(expect.stringMatching(reason));
  });

  it('refuses 40,000 repeats of one field at once, without handing them to conform', async () => {
    const started = performance.now();
    expect(await readForm(post('title=a&'.repeat(40_000)), fields)).toBeNull();
    // conform's parse of the same body took seconds; the count is one pass over the names.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('counts a body’s entries before parsing it: more than the form’s fields can hold is refused unparsed', async () => {
    const parse = vi.spyOn(Response.prototype, 'formData');
    const multipart = new FormData();
    for (let i = 0; i < 2_000; i += 1) multipart.append('title', 'a');
    const request = new Request('http://localhost/form', { method: 'POST', body: multipart });
    expect(await readForm(request, fields)).toBeNull();
    expect(await readForm(post('title=a&'.repeat(1_000)), fields)).toBeNull();
    expect(parse).not.toHaveBeenCalled();
    expect(console.warn).toHaveBeenCalledWith(expect.stringMatching(/more entries than the form's \d+ fields/));
  });

  it('refuses unparsed a multipart body whose boundary, as the platform reads the header, never occurs in it', async () => {
    const parse = vi.spyOn(Response.prototype, 'formData');
    const parts = Array.from(
      { length: 2_000 },
      () => '--real\r\nContent-Disposition: form-data; name="title"\r\n\r\na\r\n',
    );
    const body = `${parts.join('')}--real--`;
    // A second `boundary` inside a quoted parameter: a reader that took it would count no delimiter.
    for (const contentType of [
      'multipart/form-data; x="; boundary=zz"; boundary=real',
      'multipart/form-data; boundary=real',
    ]) {
      expect(await readForm(post(body, contentType), fields), contentType).toBeNull();
    }
    expect(await readForm(post(body, 'multipart/form-data; boundary=other'), fields)).toBeNull();
    expect(await readForm(post(body, 'multipart/form-data'), fields)).toBeNull();
    expect(parse).not.toHaveBeenCalled();
  });

  it('takes only multipart when asked (the image forms)', async () => {
    expect(await readForm(post('title=a'), fields, { multipartOnly: true })).toBeNull();
    const multipart = new FormData();
    multipart.append('title', 'a');
    const request = new Request('http://localhost/form', { method: 'POST', body: multipart });
    expect([...(await readForm(request, fields, { multipartOnly: true }))!.keys()]).toEqual(['title']);
  });
});

describe('a refused form comes back without a control character', () => {
  const Schema = z.object({
    title: oneLineText('제목').max(50),
    content: freeText().max(500),
    routes: z.object({ a: oneLineText('id') }),
    tags: z.array(oneLineText('태그')),
  });
  const fields: FormSpec = { schema: Schema };

  it("parseForm's reply echoes no NUL or other control character, nested or listed, and keeps tabs and line breaks", () => {
    const formData = new FormData();
    formData.append('title', 'Cafe\u0000 Bar\u001b');
    formData.append('content', '첫 줄\r\n\t둘째\u0000 줄\u007f');
    formData.append('routes.a', '12\u00003');
    formData.append('tags[0]', 'x\u0000');
    const submission = parseForm(formData, Schema);
    expect(submission.status).toBe('error');
    const reply = submission.reply();
    expect(reply.error).toMatchObject({
      title: [TEXT_MESSAGES.oneLine('제목')],
      content: [TEXT_MESSAGES.invalidCharacter],
    });
    expect(reply.initialValue).toEqual({
      title: 'Cafe Bar',
      content: '첫 줄\n\t둘째 줄',
      routes: { a: '123' },
      tags: ['x'],
    });
  });

  it('readUploadForm hands a NUL to the schema (refused with its message) and keeps the other fields to show again', async () => {
    const multipart = new FormData();
    multipart.append('title', 'Cafe\u0000 Bar');
    multipart.append('content', '메모');
    multipart.append('routes.a', '1');
    const request = new Request('http://localhost/form', { method: 'POST', body: multipart });
    const read = await readUploadForm(request, fields, { maxFileBytes: 10 });
    expect(read?.formData.get('title')).toBe('Cafe\u0000 Bar');
    const reply = parseForm(read!.formData, Schema).reply();
    expect(reply.error?.title).toEqual([TEXT_MESSAGES.oneLine('제목')]);
    expect(reply.initialValue).toEqual({ title: 'Cafe Bar', content: '메모', routes: { a: '1' } });
  });
});
