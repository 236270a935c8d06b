/**
 * The service worker's offline page in each language (docs/decisions/009-installable-app.md; ADR
 * 032): the template app/offline.html with each `{{key}}` the catalog's message of that key and
 * `{{lang}}` the language. `npm run build` (scripts/build-sw.ts) writes the pages and precaches them.
 */
import type { Locale } from '../../contract/locales';
import common from './compiled/ko/common.js';
import english from './compiled/en.js';

/** Each language's offline page, from the site's root (the worker picks one: scripts/build-sw.ts). */
export const OFFLINE_PAGES: Record<Locale, string> = { ko: '/offline.html', en: '/offline.en.html' };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/**
 * `template` (app/offline.html) in `locale`: every `{{key}}` replaced by its message, HTML-escaped.
 * @throws Error naming a `{{key}}` the page has no message for.
 */
export function offlinePage(template: string, locale: Locale): string {
  const messages = locale === 'en' ? english : common;
  const name = messages['site.name']();
  const texts: Record<string, string> = {
    lang: locale,
    'site.name': name,
    'site.note': messages['site.note'](),
    'offline.pageTitle': messages['offline.pageTitle']({ name }),
    'error.offlineTitle': messages['error.offlineTitle'](),
    'error.offline': messages['error.offline'](),
    'offline.retry': messages['offline.retry'](),
  };
  return template.replace(/\{\{([\w.]+)\}\}/g, (_, key: string) => {
    if (!(key in texts)) throw new Error(`app/offline.html: no message for {{${key}}}`);
    return texts[key].replace(/[&<>"]/g, (character) => ESCAPES[character]);
  });
}
