/**
 * The security headers of an answer, as the tests compare them between a fast path's answer and
 * express's (helmet's set, captured once and sent by every answer): every one a page's safety
 * depends on, and not X-Request-Id, which is each answer's own (docs/deploy.md §Logs).
 */
const SECURITY_HEADER =
  /^(content-security-policy|cross-origin-|origin-agent-cluster|referrer-policy|strict-transport-security|x-)/;

/** The names of `headers`' security headers (lower case). */
export function securityHeaderNames(headers: Headers): string[] {
  return [...headers.keys()].filter((name) => SECURITY_HEADER.test(name) && name !== 'x-request-id');
}
