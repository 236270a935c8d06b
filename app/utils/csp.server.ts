/**
 * The origins server.ts adds to its Content-Security-Policy beyond 'self': the public base URL of
 * S3-stored images when set, the hosts of the third-party ad slots (Kakao AdFit,
 * Google AdSense) only when that slot is configured, and Google Analytics 4's only when
 * ANALYTICS_ID is set. With none configured, the page may load nothing from a
 * third party.
 *
 * A document's own inline scripts (Remix's context and module loader, single fetch's data, the
 * scroll restoration, the analytics set-up) are allowed by their SHA-256 hashes
 * (inlineScriptHashes), not by a per-request nonce, so a page's bytes can be made once and sent to
 * everyone (ADR 023).
 */
import { createHash } from 'node:crypto';
import type { WebEnv } from '~/utils/env.server';
import type { PublicConfig } from '~/utils/public-config';

type CspSources = { script: string[]; img: string[]; frame: string[]; connect: string[] };

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

/** An inline script of a rendered document: a `<script>` without `src` and its text. */
const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;

/**
 * The CSP hash sources (`'sha256-…'`, base64) of every inline script in `html`, in document order
 * without repeats: the browser hashes a script's text exactly as it stands between its tags (React
 * and Remix escape `</script` inside, so the first closing tag ends it).
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, text] of html.matchAll(INLINE_SCRIPT)) {
    hashes.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}
