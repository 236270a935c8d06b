/**
 * The most bytes a request body may have, per route, and the answer past it (docs/deploy.md
 * §Request bodies and origins). The edge (app/server/request-bodies.server.ts) applies it to every
 * request with a body before any of it is read:
 * a declared Content-Length over the cap is refused at once (before `100 Continue`), a body
 * without one is counted as it streams, and what passes is held whole (at most the cap) before
 * Remix sees it, so no action can read more. The answer is a 413 with a short page in the page's
 * language (app/i18n/locale.server.ts; the edge catalog) that says the form's own message (a few
 * hundred bytes; never the page with what was sent in it), or `{ message }` for the JSON endpoint.
 *
 * The caps of the text forms are each field's maximum length at its worst encoding: in an
 * application/x-www-form-urlencoded body a UTF-16 code unit is at most 3 UTF-8 bytes, each sent as
 * `%XX` (9 bytes; what `maxlength` lets a person type always fits). A multipart form carries an
 * image: its cap is the image cap plus room for the text fields (at most a few KB even in Korean).
 * A larger photo is refused whole, with the image's own message; with JavaScript the page checks
 * the size before sending.
 */
import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  AD_FORMAT_MESSAGES,
  AD_MESSAGES,
  IMAGE_MAX_BYTES,
  REJECT_REASON_MAX,
  REJECT_REASON_TOO_LONG,
} from '../../contract/ads';
import { ADMIN_MESSAGES } from '../../contract/admin';
import {
  INQUIRY_CONTENT_MAX,
  INQUIRY_MESSAGES,
  INQUIRY_REPLY_MAX,
  INQUIRY_REPLY_MESSAGES,
} from '../../contract/inquiries';
import { SKILL_MAX_BODY_BYTES } from '../../contract/skill';
import { REMINDER_MESSAGES } from '../../contract/reminders';
import { formatCount } from '../../contract/korean-format';
import type { Locale } from '../../contract/locales';
import { richText, type TagRenderers } from '~/i18n/rich-text';
import common from '~/i18n/compiled/ko/common.js';
import edge from '~/i18n/compiled/ko/edge.js';
import english from '~/i18n/compiled/en.js';

/**
 * A route's body cap: `maxBytes`, what the 413 says (`page`: an HTML page; `json`: `{ message }`) in
 * Korean, and in English when the route is a public page's form (`english`; the admin pages are
 * Korean only), and the pool of the server's body budget its bodies count against
 * (app/server/body-budget.server.ts): `image` for an image form's multipart bodies, `text` for every other.
 */
export type BodyLimit = {
  maxBytes: number;
  message: string;
  english?: string;
  answer: 'page' | 'json';
  pool: 'image' | 'text';
};

/** Bytes of `chars` characters of form fields in a urlencoded body, at worst (9 per UTF-16 unit). */
const urlencoded = (chars: number) => chars * 9;
/** Field names, separators and the short hidden fields (the honeypot, intent, ids), in bytes. */
const FORM_OVERHEAD = 2 * 1024;
/** The text fields of an image form (a few KB even in Korean), with room to spare, in bytes. */
const IMAGE_FORM_TEXT_BYTES = 256 * 1024;
/** A multipart form with an image: the image cap (5 MB) and IMAGE_FORM_TEXT_BYTES for its text fields, in bytes. */
export const MULTIPART_MAX_BYTES = IMAGE_MAX_BYTES + IMAGE_FORM_TEXT_BYTES;

/** What every form without a message of its own says past its cap. */
const TOO_LARGE = edge['tooLarge.text']();
/** Forms with no free text (a button, an id): room for their hidden fields only. */
const SMALL_FORM: BodyLimit = {
  maxBytes: FORM_OVERHEAD,
  message: TOO_LARGE,
  english: english['tooLarge.text'](),
  answer: 'page',
  pool: 'text',
};

/**
 * The caps by route path (the page's path; single fetch's `<path>.data` shares its page's cap).
 * A path not listed has no action that reads more than SMALL_FORM.
 */
const LIMITS: ReadonlyArray<readonly [RegExp, BodyLimit]> = [
  [
    /^\/contact$/,
    {
      // content and the e-mail (254, RFC 5321).
      maxBytes: urlencoded(INQUIRY_CONTENT_MAX + 254) + FORM_OVERHEAD,
      message: INQUIRY_MESSAGES.contentTooLong,
      english: english['contact.contentTooLong']({ max: formatCount(INQUIRY_CONTENT_MAX) }),
      answer: 'page',
      pool: 'text',
    },
  ],
  [
    /^\/ads\/apply$/,
    {
      maxBytes: MULTIPART_MAX_BYTES,
      message: `${AD_MESSAGES.submitFailed} ${AD_FORMAT_MESSAGES.imageSize}`,
      english: `${english['apply.failed']()} ${english['check.imageSize']()}`,
      answer: 'page',
      pool: 'image',
    },
  ],
  [
    /^\/admin-only\/ads\/edit\/[^/]+$/,
    {
      maxBytes: MULTIPART_MAX_BYTES,
      message: `${ADMIN_MESSAGES.uploadFailed} ${AD_FORMAT_MESSAGES.imageSize}`,
      answer: 'page',
      pool: 'image',
    },
  ],
  // username (64), password (1,024: the sign-in schema's) and the page to return to (2,048).
  [
    /^\/admin-only\/login$/,
    { maxBytes: urlencoded(64 + 1024 + 2048) + FORM_OVERHEAD, message: TOO_LARGE, answer: 'page', pool: 'text' },
  ],
  // token (200), username (32), the password twice (128 each).
  [
    /^\/admin-only\/setup$/,
    { maxBytes: urlencoded(200 + 32 + 2 * 128) + FORM_OVERHEAD, message: TOO_LARGE, answer: 'page', pool: 'text' },
  ],
  // the notice's title (100) and text (2,000), and their English (as long).
  [
    /^\/admin-only\/notice$/,
    { maxBytes: urlencoded(2 * (100 + 2000)) + FORM_OVERHEAD, message: TOO_LARGE, answer: 'page', pool: 'text' },
  ],
  // the reject dialog's reason (500).
  [
    /^\/admin-only\/ads\/[^/]+\/confirm\/[^/]+$/,
    {
      maxBytes: urlencoded(REJECT_REASON_MAX) + FORM_OVERHEAD,
      message: REJECT_REASON_TOO_LONG,
      answer: 'page',
      pool: 'text',
    },
  ],
  // an inquiry's reply (2,000).
  [
    /^\/admin-only\/inquiries$/,
    {
      maxBytes: urlencoded(INQUIRY_REPLY_MAX) + FORM_OVERHEAD,
      message: INQUIRY_REPLY_MESSAGES.tooLong,
      answer: 'page',
      pool: 'text',
    },
  ],
  // the GBIS setup: about 70 fields of ids, times and minutes, with names such as
  // routes.1150.timetable.weekday.minHeadwayMin (about 4 KB at their longest).
  [/^\/admin-only\/gbis$/, { maxBytes: 16 * 1024, message: TOO_LARGE, answer: 'page', pool: 'text' }],
  // a reminder, or a renewed subscription: push endpoints (2,048 characters at most) and keys, in JSON.
  [
    /^\/reminders(\/subscription)?$/,
    { maxBytes: 8 * 1024, message: REMINDER_MESSAGES.badRequest, answer: 'json', pool: 'text' },
  ],
  [
    /^\/api\/kakao\/skill$/,
    {
      maxBytes: SKILL_MAX_BODY_BYTES,
      message: `Request body over ${SKILL_MAX_BODY_BYTES} bytes`,
      answer: 'json',
      pool: 'text',
    },
  ],
];

/**
 * The cap of a request to `pathname` (a URL path as received: `/contact`, `/contact.data`,
 * `/contact/`) with `contentType`. An image form takes only multipart: any other body is read as
 * text (IMAGE_FORM_TEXT_BYTES, the text pool) and then refused by the form (app/utils/form-data.server.ts).
 */
export function bodyLimitOf(pathname: string, contentType: string | undefined): BodyLimit {
  const page = pathname.replace(/\.data$/, '').replace(/(.)\/+$/, '$1');
  const limit = LIMITS.find(([pattern]) => pattern.test(page))?.[1] ?? SMALL_FORM;
  if (limit.pool === 'image' && !/^multipart\/form-data\s*(;|$)/i.test(contentType ?? '')) {
    return { ...limit, maxBytes: IMAGE_FORM_TEXT_BYTES, pool: 'text' };
  }
  return limit;
}

/**
 * The look of the site (app/styles/base.css: its colours, font and mobile frame) for a page the
 * edge answers without Remix: the 413 of an HTML form.
 */
const PAGE_STYLE =
  ':root{color-scheme:light;font-family:system-ui,-apple-system,"Apple SD Gothic Neo","Noto Sans KR","Malgun Gothic",sans-serif;' +
  'line-height:1.5;color:#1f1f1f;background:#ffe4ef}body{margin:0}' +
  'main{max-width:390px;margin:0 auto;padding:24px 16px}' +
  '.site{font-weight:700;color:#a8005a;text-decoration:none}' +
  '.card{background:#fff;border-radius:12px;padding:16px 20px;margin-top:16px}' +
  'h1{font-size:1.25rem;margin:0 0 8px}p{margin:8px 0}.muted{color:#5c4350}' +
  'a{color:#a8005a}';

/**
 * The 413 for a body over `limit` on `pathname`, in `locale` (the page's language: localeOf; Korean
 * for a route with no English message): its content type and body. The page has the site's look and
 * says the form's own message, and that the browser's Back returns to the form with what was typed
 * (browsers keep a form's fields on Back; the form's own link would open it empty).
 */
export function tooLargeAnswer(
  limit: BodyLimit,
  pathname: string,
  locale: Locale = 'ko',
): { contentType: string; body: string } {
  if (limit.answer === 'json') {
    return { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ message: limit.message }) };
  }
  // The form's page, to name as a last resort; a path of another shape (`//host`, a backslash) goes home instead.
  const page = pathname.replace(/\.data$/, '');
  const form = /^\/(?!\/)[\w\-./]*$/.test(page) ? page : '/';
  const inEnglish = locale === 'en' && limit.english !== undefined;
  const messages = inEnglish ? english : { ...common, ...edge };
  const name = messages['site.name']();
  const tags: TagRenderers = {
    strong: (words) => createElement('strong', null, words),
    form: (words) => createElement('a', { href: form }, words),
  };
  const markup = (message: string) => renderToStaticMarkup(createElement(Fragment, null, richText(message, tags)));
  return {
    contentType: 'text/html; charset=utf-8',
    body:
      `<!doctype html><html lang="${inEnglish ? 'en' : 'ko'}"><head><meta charset="utf-8">` +
      '<meta name="viewport" content="width=device-width, initial-scale=1">' +
      `<title>${escapeHtml(messages['tooLarge.pageTitle']({ name }))}</title><style>${PAGE_STYLE}</style></head><body><main>` +
      `<a class="site" href="/">${escapeHtml(name)}</a><div class="card" role="alert">` +
      `<h1>${escapeHtml(messages['tooLarge.title']())}</h1><p>${escapeHtml(inEnglish ? limit.english! : limit.message)}</p>` +
      `<p>${markup(messages['tooLarge.back']())}</p>` +
      `<p class="muted">${markup(messages['tooLarge.reopen']())}</p>` +
      '</div></main></body></html>',
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
