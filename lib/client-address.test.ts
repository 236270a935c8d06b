import { clientKeysOf, UNKNOWN_CLIENT } from './client-address';

describe('clientKeysOf', () => {
  it('keys an IPv4 address by itself and its /24, whether written plain, IPv4-mapped or with a port', () => {
    const keys = { ip: '203.0.113.1', address: '203.0.113.1', network: '203.0.113.0/24' };
    for (const spelling of [
      '203.0.113.1',
      ' 203.0.113.1 ',
      '::ffff:203.0.113.1',
      '::FFFF:203.0.113.1',
      '::ffff:cb00:7101',
      '0:0:0:0:0:FFFF:CB00:7101',
      '[::ffff:203.0.113.1]:443',
      '203.0.113.1:5678',
    ]) {
      expect(clientKeysOf(spelling), spelling).toEqual(keys);
    }
  });

  it('writes an IPv6 address one way however it is spelt, and keys it by its /64 and /48', () => {
    for (const spelling of [
      '2001:db8::1',
      '2001:DB8:0:0::1',
      '2001:0db8:0000:0000:0000:0000:0000:0001',
      '2001:db8:0::0:1',
      '[2001:db8::1]',
      '[2001:db8::1]:443',
    ]) {
      expect(clientKeysOf(spelling), spelling).toEqual({
        ip: '2001:db8::1',
        address: '2001:db8::/64',
        network: '2001:db8::/48',
      });
    }
  });

  it('gives every address of one /64 the same per-address key, and a /48 the same network key', () => {
    const one64 = ['2001:db8:aa:bb::1', '2001:db8:aa:bb:ffff:ffff:ffff:ffff', '2001:db8:aa:bb:1234:5678:9abc:def0'];
    expect(new Set(one64.map((ip) => clientKeysOf(ip).address))).toEqual(new Set(['2001:db8:aa:bb::/64']));
    expect(clientKeysOf('2001:db8:aa:bc::1').address).toBe('2001:db8:aa:bc::/64');
    expect(clientKeysOf('2001:db8:aa:bc::1').network).toBe('2001:db8:aa::/48');
    expect(clientKeysOf('2001:db8:ab::1').network).toBe('2001:db8:ab::/48');
    expect(clientKeysOf('1:2:3:4:5:6:7:8')).toEqual({
      ip: '1:2:3:4:5:6:7:8',
      address: '1:2:3:4::/64',
      network: '1:2:3::/48',
    });
    expect(clientKeysOf('::1')).toEqual({ ip: '::1', address: '::/64', network: '::/48' });
    // An IPv4 tail that is not IPv4-mapped stays IPv6 (its groups read from the dotted part).
    expect(clientKeysOf('64:ff9b:1:2:3:4:1.2.3.4').address).toBe('64:ff9b:1:2::/64');
  });

  it('keys neighbouring IPv4 addresses apart, and their /24 together', () => {
    expect(clientKeysOf('198.51.100.7').address).not.toBe(clientKeysOf('198.51.100.8').address);
    expect(clientKeysOf('198.51.100.7').network).toBe(clientKeysOf('198.51.100.8').network);
    expect(clientKeysOf('198.51.101.7').network).toBe('198.51.101.0/24');
  });

  it('keys anything that is not an IP address as one shared unknown client', () => {
    const unknown = { ip: UNKNOWN_CLIENT, address: UNKNOWN_CLIENT, network: UNKNOWN_CLIENT };
    for (const value of [
      undefined,
      '',
      ' ',
      'unknown',
      'localhost',
      'evil.example',
      '203.0.113',
      '203.0.113.1.5',
      '203.000.113.001',
      '256.0.0.1',
      '2001:db8:::1',
      '1:2:3:4:5:6:7:8:9',
      '[203.0.113.1',
      '<script>',
      '203.0.113.1, 10.0.0.1',
    ]) {
      expect(clientKeysOf(value), String(value)).toEqual(unknown);
    }
  });
});
