import { z } from 'zod';
import { formFields, readForm, serialIdOf } from '~/utils/form-data.server';

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
  const fields = formFields(Schema, { also: ['intent'], repeated: ['order'] });
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

  it('takes only multipart when asked (the image forms)', async () => {
    expect(await readForm(post('title=a'), fields, { multipartOnly: true })).toBeNull();
    const multipart = new FormData();
    multipart.append('title', 'a');
    const request = new Request('http://localhost/form', { method: 'POST', body: multipart });
    expect([...(await readForm(request, fields, { multipartOnly: true }))!.keys()]).toEqual(['title']);
  });
});
