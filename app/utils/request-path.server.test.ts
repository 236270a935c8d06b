import type { IncomingMessage } from 'node:http';
import { isAt, pathOf } from './request-path.server';

const request = (url: string) => ({ url }) as IncomingMessage;

it('reads the path without its query', () => {
  expect(pathOf(request('/api/kakao/skill?x=1&y=2'))).toBe('/api/kakao/skill');
  expect(pathOf({} as IncomingMessage)).toBe('/');
});

it('takes a path with or without a trailing slash and with any query, and no other', () => {
  for (const url of ['/api/kakao/skill', '/api/kakao/skill/', '/api/kakao/skill?x=1', '/api/kakao/skill/?x=1']) {
    expect(isAt(request(url), '/api/kakao/skill'), url).toBe(true);
  }
  for (const url of ['/api/kakao/skills', '/api/kakao', '/api/kakao/skill/x', '/api/kakao/skill//']) {
    expect(isAt(request(url), '/api/kakao/skill'), url).toBe(false);
  }
});
