import type { IncomingMessage } from 'node:http';
import { hasPlainHost, isAt, pathOf } from './request-path.server';

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

it('takes a Host (and X-Forwarded-Host) of host[:port] alone, and no Host with a path, a query or anything more', () => {
  const hosts = (host?: string, forwarded?: string) =>
    hasPlainHost({ headers: { host, 'x-forwarded-host': forwarded } } as unknown as IncomingMessage);
  for (const host of [
    'localhost',
    'localhost:3000',
    '127.0.0.1:80',
    'bus.example.ac.kr',
    '[::1]:3000',
    '[2001:db8::1]',
    'Bus.Example.',
  ]) {
    expect(hosts(host), host).toBe(true);
    expect(hosts('localhost', host), `forwarded ${host}`).toBe(true);
  }
  for (const host of [
    '127.0.0.1/contact?',
    'a b',
    '[',
    'x:99999',
    '%',
    'host:80/x',
    'host?x',
    'host#x',
    'user@host',
    '',
    'a..b',
    '-a.b',
  ]) {
    expect(hosts(host), host).toBe(false);
    expect(hosts('localhost', host), `forwarded ${host}`).toBe(false);
  }
  expect(hosts()).toBe(true);
});
