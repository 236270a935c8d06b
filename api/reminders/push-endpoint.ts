/**
 * The push services the server posts reminders to (docs/decisions/033-web-push-reminders.md): a
 * subscription's endpoint is a URL a browser hands over, so the server posts only to the browsers'
 * own push services over https, and refuses any other endpoint (400, nothing sent) before it is
 * stored. PUSH_ENDPOINT_HOSTS (a comma list of host or host:port, `*.` for any subdomain) replaces
 * the list; an entry with a port on 127.0.0.1 also allows plain http there, for tests only.
 */

/** The browsers' push services: Chrome's FCM, Firefox's autopush, Safari's, Edge's and Windows' WNS. */
export const DEFAULT_PUSH_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'web.push.apple.com',
  '*.notify.windows.com',
] as const;

/** One allowed host: a name (or `*.suffix`), and the port it must use (null: https's own, 443). */
export type PushHost = { name: string; anySubdomain: boolean; port: string | null };

const LOOPBACK = '127.0.0.1';
/** A host name's label (RFC 1123), lower case. */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const ENTRY = new RegExp(`^(\\*\\.)?(${LABEL}(?:\\.${LABEL})*)(?::(\\d{1,5}))?$`);

/**
 * The hosts of `list` (PUSH_ENDPOINT_HOSTS, comma-separated), or the defaults when it is empty.
 * @throws Error naming an entry that is no host, `*.host` or host:port (a port other than 1–65535).
 */
export function pushHostsOf(list: string | undefined): PushHost[] {
  const entries = (list ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  return (entries.length > 0 ? entries : [...DEFAULT_PUSH_HOSTS]).map((entry) => {
    const match = ENTRY.exec(entry);
    const port = match?.[3] ?? null;
    if (!match || (port !== null && (Number(port) < 1 || Number(port) > 65535))) {
      throw new Error(`PUSH_ENDPOINT_HOSTS: "${entry}" is not a host, *.host or host:port`);
    }
    return { name: match[2], anySubdomain: Boolean(match[1]), port };
  });
}

/**
 * Whether the server may post to `endpoint`: an absolute https URL (http only on 127.0.0.1 at an
 * allowed port) without credentials, whose host and port are one of `hosts`.
 */
export function isAllowedPushEndpoint(endpoint: string, hosts: readonly PushHost[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const loopbackTest = url.hostname === LOOPBACK && url.port !== '';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackTest)) return false;
  return hosts.some((host) => {
    const named = host.anySubdomain ? url.hostname.endsWith(`.${host.name}`) : url.hostname === host.name;
    if (!named) return false;
    if (host.port === null) return url.protocol === 'https:' && url.port === '';
    // A port is given: that port; plain http only on the loopback address.
    return url.port === host.port && (url.protocol === 'https:' || host.name === LOOPBACK);
  });
}

/** The browsers' push services, parsed (what an api without PUSH_ENDPOINT_HOSTS posts to). */
export const DEFAULT_PUSH_HOST_LIST: readonly PushHost[] = pushHostsOf(undefined);
