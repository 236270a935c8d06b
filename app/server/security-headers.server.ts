/**
 * The security headers of every answer: helmet's, with a CSP that allows this site's sources and
 * those of the configured third parties (app/server/csp.server.ts cspSources), and a document's own
 * inline scripts by their hashes (ADR 023). Express's answers get them from the middleware; the fast
 * paths' answers, which skip express, get the same headers captured from it (`of`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type express from 'express';
import helmet from 'helmet';
import type { CspSources } from '~/server/csp.server';

export type SecurityHeaders = {
  /** The express middleware: every header, and the CSP of an answer that runs no inline script. */
  middleware: express.RequestHandler;
  /**
   * The headers of an answer that skips express, with the CSP of a document whose own scripts'
   * hash sources are `hashes` (none: an answer that runs no script).
   */
  of(hashes?: string): Record<string, string>;
  /** Sets on `res` the CSP of a document whose own scripts' hash sources are `hashes` (app/entry.server.tsx). */
  allowDocumentScripts(req: express.Request, res: express.Response, hashes: string): void;
};

/** The script sources of a document whose own scripts' hash sources are `hashes`; of any other answer 'self' alone. */
const scriptSourcesOf = (hashes = '') => (hashes ? `'self' ${hashes}` : "'self'");

/** @param csp the sources the CSP allows beyond 'self' (cspSources). */
export function createSecurityHeaders(csp: CspSources): SecurityHeaders {
  /** Every header but the CSP (contentSecurityPolicy below). */
  const securityHeaders = helmet({ contentSecurityPolicy: false, referrerPolicy: { policy: 'same-origin' } });
  /**
   * The CSP. A document's inline scripts are allowed by their hashes (res.locals.scriptSources, set
   * once its HTML is rendered; ADR 023); any other answer runs no inline script.
   */
  const contentSecurityPolicy = helmet.contentSecurityPolicy({
    useDefaults: true,
    directives: {
      'script-src': [(_req, res) => (res as express.Response).locals.scriptSources as string, ...csp.script],
      'connect-src': ["'self'", ...csp.connect],
      // blob: the admin's preview of a picked replacement image (an object URL, app/hooks/use-object-url.ts).
      'img-src': ["'self'", 'data:', 'blob:', ...csp.img],
      'frame-src': ["'self'", ...csp.frame],
      'upgrade-insecure-requests': null,
    },
  });

  return {
    middleware(req, res, next) {
      res.locals.scriptSources = scriptSourcesOf();
      securityHeaders(req, res, () => contentSecurityPolicy(req, res, next));
    },
    of(hashes) {
      const headers: Record<string, string> = {};
      const res = {
        locals: { scriptSources: scriptSourcesOf(hashes) },
        setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
        removeHeader: (name: string) => void delete headers[name.toLowerCase()],
      };
      const req = {} as IncomingMessage;
      securityHeaders(req, res as unknown as ServerResponse, () => undefined);
      contentSecurityPolicy(req, res as unknown as ServerResponse, () => undefined);
      return headers;
    },
    allowDocumentScripts(req, res, hashes) {
      res.locals.scriptSources = scriptSourcesOf(hashes);
      contentSecurityPolicy(req, res, () => undefined);
    },
  };
}
