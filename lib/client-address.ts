/**
 * The client's address as the api's limits key it. An address has many spellings, and one person
 * holds many addresses: an IPv4 address also reads as IPv4-mapped IPv6 (`::ffff:203.0.113.1`), an
 * IPv6 one in upper case, with zeros written out or compressed, and a phone or a server on IPv6 gets
 * a whole /64 and picks any address in it. So every limit keys on the address normalised (node:net's
 * SocketAddress, which writes IPv6 the RFC 5952 way) and, for IPv6, cut to its /64; a wider limit on
 * top keys on the IPv4 /24 and the IPv6 /48, so that rotating through a /64's neighbours, or a
 * handful of neighbouring IPv4 addresses, does not start a fresh budget each time (ADR 027).
 */
import { isIPv4, isIPv6, SocketAddress } from 'node:net';

/** The key of a value that is no IP address: every such client shares one budget. */
export const UNKNOWN_CLIENT = 'unknown';

/** How the limits see one client (`clientKeysOf`); each is UNKNOWN_CLIENT for a value that is no IP address. */
export type ClientKeys = {
  /** The address normalised (IPv4 dotted, IPv6 lower-case compressed), as the audit log keeps it. */
  ip: string;
  /** The key of the per-address limits: the IPv4 address, or the IPv6 /64 (`2001:db8:1:2::/64`). */
  address: string;
  /** The key of the wider limits: the IPv4 /24 (`203.0.113.0/24`), or the IPv6 /48 (`2001:db8:1::/48`). */
  network: string;
};

/**
 * The keys of a client whose address is `value` as the web forwarded it: an IPv4 or IPv6 address in
 * any spelling Node's parser takes, optionally in brackets or with a port as some proxies write them
 * (`[2001:db8::1]:443`, `203.0.113.1:5678`). IPv4-mapped IPv6 is its IPv4 address. Anything else
 * (empty, absent, a name, an IPv4 address with leading zeros, which Node refuses as ambiguous) is
 * UNKNOWN_CLIENT for all three keys.
 */
export function clientKeysOf(value: string | undefined): ClientKeys {
  const literal = unwrap(value?.trim() ?? '');
  if (isIPv4(literal)) return ipv4Keys(literal);
  if (!isIPv6(literal)) return { ip: UNKNOWN_CLIENT, address: UNKNOWN_CLIENT, network: UNKNOWN_CLIENT };
  const ip = canonicalIPv6(literal);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) return ipv4Keys(mapped[1]);
  const groups = hextetsOf(ip);
  return { ip, address: ipv6Prefix(groups, 64), network: ipv6Prefix(groups, 48) };
}

/** `[v6]`, `[v6]:port` → v6; `a.b.c.d:port` → a.b.c.d; anything else as it is. */
function unwrap(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1];
  const withPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(value);
  return withPort ? withPort[1] : value;
}

function ipv4Keys(ip: string): ClientKeys {
  return { ip, address: ip, network: `${ip.split('.').slice(0, 3).join('.')}.0/24` };
}

/** The RFC 5952 text of a valid IPv6 address (lower case, zeros compressed, no zone). */
function canonicalIPv6(ip: string): string {
  return new SocketAddress({ address: ip, family: 'ipv6' }).address;
}

/** The eight 16-bit groups of a canonical IPv6 text (its dotted IPv4 tail, if any, as two groups). */
function hextetsOf(canonical: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(canonical);
  const text = dotted
    ? canonical.slice(0, dotted.index) +
      [(+dotted[1] << 8) | +dotted[2], (+dotted[3] << 8) | +dotted[4]].map((group) => group.toString(16)).join(':')
    : canonical;
  const [head, tail] = text.split('::').map((part) => (part ? part.split(':') : []));
  const zeros = tail ? Array<string>(8 - head.length - tail.length).fill('0') : [];
  return [...head, ...zeros, ...(tail ?? [])].map((group) => parseInt(group, 16));
}

/** The /`bits` prefix (a multiple of 16) of `groups` as canonical text with its length. */
function ipv6Prefix(groups: number[], bits: 48 | 64): string {
  const kept = groups.map((group, index) => (index < bits / 16 ? group : 0));
  return `${canonicalIPv6(kept.map((group) => group.toString(16)).join(':'))}/${bits}`;
}
