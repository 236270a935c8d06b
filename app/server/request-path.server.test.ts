import type { IncomingMessage } from 'node:http';
import { hasPlainHost, isAt, pathOf } from './request-path.server';

const request = (url: string) => ({ url }) as IncomingMessage;

it('reads the path without its query', () => {
  expect(pathOf(request('/api/kakao/skill?x=1&y=2'))).toBe('/api/kakao/skill');
  expect(pathOf({} as IncomingMessage)).toBe('/');
});

it('reads the path as Remix routes it: dot segments and backslashes resolved', () => {
  expect(pathOf(request('/admin-only/ads/edit/..'))).toBe('/admin-only/ads/');
  expect(pathOf(request('/admin-only/ads/edit/%2e%2E?x=1'))).toBe('/admin-only/ads/');
  expect(pathOf(request('/ads/apply/../../contact'))).toBe('/contact');
  expect(pathOf(request('/contact\\..\\ads\\apply'))).toBe('/ads/apply');
  expect(pathOf(request('/build/entry.client-ABC.js'))).toBe('/build/entry.client-ABC.js');
  expect(pathOf(request('//evil.example/x'))).toBe('//evil.example/x');
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
    'web_1:3000',
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
  // A chain of proxies lists its hosts: the first is the site's.
  expect(hosts('web:3000', 'bus.example.ac.kr, proxy.internal')).toBe(true);
  expect(hosts('web:3000', 'bus.example.ac.kr/contact?, proxy.internal')).toBe(false);
});
