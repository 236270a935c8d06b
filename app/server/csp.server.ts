/**
 * The origins the edge adds to its Content-Security-Policy beyond 'self': the public base URL of
 * S3-stored images when set, the hosts of the third-party ad slots (Kakao AdFit,
 * Google AdSense) only when that slot is configured, and Google Analytics 4's only when
 * ANALYTICS_ID is set. With none configured, the page may load nothing from a
 * third party.
 *
 * A document's own inline scripts (Remix's context and module loader, single fetch's data, the
 * scroll restoration, the analytics set-up) are allowed by their SHA-256 hashes (ownScripts), not
 * by a nonce sent with the page, so a page's bytes can be made once and sent to everyone (ADR 023).
 * Only the scripts the render marked as its own are hashed: a script that got into the page any
 * other way is not allowed.
 */
import { createHash } from 'node:crypto';
import type { WebEnv } from '~/server/env.server';
import type { PublicConfig } from '~/utils/public-config';

/** What each directive (script-src, img-src, frame-src, connect-src) allows beyond 'self' and its defaults. */
export type CspSources = { script: string[]; img: string[]; frame: string[]; connect: string[] };

export function cspSources(env: Pick<WebEnv, 'S3_PUBLIC_BASE_URL'>, config: PublicConfig): CspSources {
  const sources: CspSources = { script: [], img: [], frame: [], connect: [] };
  if (env.S3_PUBLIC_BASE_URL) sources.img.push(new URL(env.S3_PUBLIC_BASE_URL).origin);
  if (config.adSlots.adfitUnit) {
    sources.script.push('https://t1.daumcdn.net');
    sources.img.push('https://*.daumcdn.net', 'https://*.daum.net', 'https://*.kakao.com');
    sources.frame.push('https://*.daum.net', 'https://*.daumcdn.net', 'https://*.kakao.com');
    sources.connect.push('https://*.daum.net', 'https://*.kakao.com');
  }
  if (config.adSlots.adsense) {
    // NOTE: no *.google.com in script-src: its JSONP endpoints would let any script in.
    const ads = ['https://*.googlesyndication.com', 'https://*.doubleclick.net'];
    sources.script.push('https://pagead2.googlesyndication.com', 'https://*.googlesyndication.com');
    sources.img.push(...ads, 'https://*.google.com', 'https://*.gstatic.com');
    sources.frame.push(...ads, 'https://*.google.com');
    sources.connect.push(...ads, 'https://*.adtrafficquality.google');
  }
  if (config.analyticsId) {
    // Google's CSP guide for GA4 (developers.google.com/tag-platform/security/guides/csp): the
    // gtag.js loader, then hits to the regional collection hosts (fetch or beacon, pixel fallback).
    const collect = [
      'https://*.google-analytics.com',
      'https://*.analytics.google.com',
      'https://*.googletagmanager.com',
      // Google signals (when the property has it on) sends its hits here.
      'https://*.g.doubleclick.net',
      'https://*.google.com',
    ];
    sources.script.push('https://www.googletagmanager.com');
    sources.img.push(...collect);
    sources.connect.push(...collect);
  }
  return sources;
}

/**
 * The response header in which app/entry.server.tsx hands a document's script hash sources
 * (space-separated) to the edge (app/server/remix-adapter.server.ts, app/server/home-page-cache.server.ts),
 * which makes them the CSP's and never sends the header.
 */
export const SCRIPT_HASHES_HEADER = 'x-document-script-hashes';

/**
 * A document rendered with `marker` (a random value made for that render, never sent) as the
 * nonce of its own scripts: `html` without the marker, and the CSP hash sources (`'sha256-…'`,
 * base64) of the marked inline scripts, in document order without repeats. The browser hashes a
 * script's text exactly as it stands between its tags (React and Remix escape `</script` inside, so
 * the first closing tag ends it). A script without the marker gets no hash, so it cannot run.
 */
export function ownScripts(html: string, marker: string): { html: string; hashes: string[] } {
  const attribute = ` nonce="${marker}"`;
  const hashes = new Set<string>();
  const scripts = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;
  const stripped = html.replace(scripts, (script, attributes: string, text: string) => {
    if (!attributes.includes(attribute)) return script;
    if (!/\ssrc=/.test(attributes))
      hashes.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
    return `<script${attributes.replace(attribute, '')}>${text}</script>`;
  });
  return { html: stripped, hashes: [...hashes] };
}
