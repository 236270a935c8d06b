import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ifNoneMatchHolds } from '~/server/conditional-get.server';
import { encodeAnswer, sendAnswer } from '~/server/shared-answer.server';

describe('ifNoneMatchHolds', () => {
  it.each([
    ['the same weak tag', 'W/"abc"', 'W/"abc"'],
    ['the strong form of a weak ETag', '"abc"', 'W/"abc"'],
    ['the weak form of a strong ETag', 'W/"abc"', '"abc"'],
    ['the same strong tag', '"abc"', '"abc"'],
    ['a list holding it', '"x", W/"y",  "abc"', 'W/"abc"'],
    ['a list with tabs and no spaces', '"x",\t"abc"', 'W/"abc"'],
    ['a list without spaces', '"x","abc"', 'W/"abc"'],
    ['any ETag', '*', 'W/"abc"'],
    ['an opaque tag with a comma', '"a,b"', 'W/"a,b"'],
  ])('holds for %s', (_, ifNoneMatch, etag) => {
    expect(ifNoneMatchHolds(ifNoneMatch, etag)).toBe(true);
  });

  it.each([
    ['no If-None-Match', undefined, 'W/"abc"'],
    ['an empty one', '', 'W/"abc"'],
    ['another tag', '"abd"', 'W/"abc"'],
    ['a tag that only contains it', '"xabcx"', 'W/"abc"'],
    ['an unquoted tag', 'abc', 'W/"abc"'],
    ['an answer without an ETag', '"abc"', null],
    ['* with an answer without an ETag', '*', null],
  ])('does not hold for %s', (_, ifNoneMatch, etag) => {
    expect(ifNoneMatchHolds(ifNoneMatch, etag)).toBe(false);
  });
});

describe('a shared answer revalidated over HTTP', () => {
  let server: Server;
  let url: string;
  let answer: Awaited<ReturnType<typeof encodeAnswer<null>>>;
  beforeAll(async () => {
    answer = await encodeAnswer(
      { data: null, status: 200, body: '<p>home</p>', headers: { 'content-type': 'text/html' } },
      0,
    );
    server = createServer((req, res) => sendAnswer(req, res, answer));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  // fetch() sends Cache-Control: no-cache with any If-None-Match; the `fresh` package answered it 200.
  it.each([
    ['its weak ETag', () => answer.etag!],
    ['the strong form of its weak ETag', () => answer.etag!.slice(2)],
  ])('answers 304 with no body to a fetch() holding %s', async (_, etag) => {
    expect(answer.etag).toMatch(/^W\/"/);
    const response = await fetch(url, { headers: { 'If-None-Match': etag() } });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe('');
    expect(response.headers.get('etag')).toBe(answer.etag);
  });

  it('answers 200 with the body to another ETag', async () => {
    const response = await fetch(url, { headers: { 'If-None-Match': '"another"' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('<p>home</p>');
  });
});
