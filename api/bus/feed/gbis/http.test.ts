import { redactKey } from './http';

describe('redactKey', () => {
  it('replaces the plain and the URL-encoded key', () => {
    const KEY = 'abc+/def==';
    expect(redactKey(`a ${KEY} b ${encodeURIComponent(KEY)}`, KEY)).toBe('a <serviceKey> b <serviceKey>');
  });
});
