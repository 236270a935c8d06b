import { mailboxAddress, recipientKey } from './address';

describe('recipientKey', () => {
  it('counts the spellings of one mailbox as one: case, spaces, a +tag, and Gmail’s dots and old domain', () => {
    const keys = ['victim@gmail.com', ' Victim@Gmail.com ', 'vic.tim+ads@gmail.com', 'v.ictim+x@googlemail.com'].map(
      recipientKey,
    );
    expect(new Set(keys)).toEqual(new Set(['victim@gmail.com']));
  });

  it('keeps the dots elsewhere, where they may name another mailbox', () => {
    expect(recipientKey('Kim.Owner+shop@Example.co.kr')).toBe('kim.owner@example.co.kr');
    expect(recipientKey('kimowner@example.co.kr')).not.toBe(recipientKey('kim.owner@example.co.kr'));
  });
});

describe('mailboxAddress', () => {
  it('reads one mailbox, with or without a name, and nothing else', () => {
    expect(mailboxAddress('외대 버스 <bus@example.com>')).toEqual({ name: '외대 버스', address: 'bus@example.com' });
    expect(mailboxAddress('a@example.com, b@example.com')).toBeNull();
  });
});
