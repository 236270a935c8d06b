/**
 * The e-mails (docs/product.md §11 E-mail): what each one says, as one letter rendered twice, a
 * plain-text part and an HTML part (server-rendered React, inline styles only, as mail clients
 * need). An applicant's or an inquirer's letter is in the language of the page they sent from
 * (docs/product.md §1 Languages), its words from the catalogs api/mail/messages/{ko,en}.json
 * compiled to api/mail/compiled/ (ADR 032); the admins' notices are Korean. Links are absolute, on
 * PUBLIC_BASE_URL. Rendered when the row is queued, so a retry or a resend sends the same words.
 */
import { adApplicationTarget, inquiryTarget } from '../admin/audit';
import { renderToStaticMarkup } from 'react-dom/server';
import type { BankAccount } from '../../contract/ad-payment';
import type { AdType } from '../../contract/ads';
import type { Locale } from '../../contract/locales';
import { AD_PRICE_PER_MONTH_WON, priceWon } from '../../contract/prices';
import { UNPAID_APPLICATION_DAYS } from '../../contract/privacy';
import type { MailKind } from '../db/schema';
import { formatKstDate } from '../../contract/kst';
import { formatCount, formatEnglishDate, formatKoreanDate } from '../../contract/korean-format';
import ko from './compiled/ko.js';
import en from './compiled/en.js';

/** Each language's compiled messages (api/mail/messages/{locale}.json). */
const MESSAGES = { ko, en };
type Messages = typeof ko;
/** The ad types' names' keys (docs/product.md §2: web is the banner, kakao the chatbot). */
const AD_TYPE_KEYS = { web: 'mail.adType.web', kakao: 'mail.adType.kakao' } as const;

/** What the letters need of the deployment. */
export type LetterSettings = {
  /** PUBLIC_BASE_URL, without a trailing slash. */
  baseUrl: string;
  /** AD_BANK_NAME, AD_BANK_ACCOUNT, AD_BANK_HOLDER; null when not configured. */
  bankAccount: BankAccount | null;
};

/** An application as the letters tell it. */
type Application = { id: number; type: AdType; title: string; duration: number };

/**
 * Every e-mail the product sends, with what it tells. `statusToken` makes the status page link
 * /ads/status/{token}; `locale` is the language of the page the application or inquiry was sent
 * from, the letter's (Korean when absent).
 */
export type Letter =
  | {
      kind: 'application-received';
      application: Application;
      applicantName: string;
      statusToken: string;
      locale?: Locale;
    }
  | { kind: 'application-admin'; application: Application; applicantName: string }
  | { kind: 'approved'; application: Application; startsAt: Date; endsAt: Date; statusToken: string; locale?: Locale }
  | { kind: 'rejected'; application: Application; reason: string | null; statusToken: string; locale?: Locale }
  | { kind: 'inquiry-admin'; inquiryId: number; content: string }
  | { kind: 'inquiry-reply'; inquiryId: number; reply: string; content: string; askedAt: Date; locale?: Locale };

/**
 * The record `letter` is about, named as the audit log names targets ("ad-request:web:7",
 * "inquiry:3"): its e-mails are deleted with it (api/mail/outbox.ts forgetMailAbout).
 */
function aboutOf(letter: Letter): string {
  if ('application' in letter) return adApplicationTarget(letter.application.type, letter.application.id);
  return inquiryTarget(letter.inquiryId);
}

/** A rendered e-mail: its subject (one line) and its two parts. */
type RenderedMail = { kind: MailKind; about: string; subject: string; text: string; html: string };

/** The parts of a letter, before rendering: its language, paragraphs, labelled facts, one link. */
type Draft = {
  locale: Locale;
  subject: string;
  paragraphs: string[];
  facts?: [label: string, value: string][];
  link?: { label: string; url: string };
  /** A quoted text (the inquiry being replied to). */
  quote?: { label: string; text: string };
  /** Small print under the link. */
  note?: string;
};

/** An instant's KST day as the language writes it: "2026년 11월 26일", "Nov 26, 2026". */
const kstDate = (locale: Locale, instant: Date) =>
  (locale === 'en' ? formatEnglishDate : formatKoreanDate)(formatKstDate(instant));

/**
 * The parts of `letter`, in its language (`locale`; the admins' notices in Korean). A subject is
 * fixed words and what the system made (ids, the ad type's name), never what a submitter typed: a
 * subject is what a phishing mail forges first. What they typed on one line (a title, a name) is
 * one line in the body too (oneLine), whatever was stored.
 */
function draftOf(letter: Letter, { baseUrl, bankAccount }: LetterSettings): Draft {
  const locale = 'locale' in letter ? (letter.locale ?? 'ko') : 'ko';
  const m: Messages = MESSAGES[locale];
  const site = m['mail.site']();
  const statusLink = (token: string) => ({ label: m['mail.statusLink'](), url: `${baseUrl}/ads/status/${token}` });
  const number = (application: Application) => m['mail.applicationNo']({ id: application.id });
  const adType = (type: AdType) => m[AD_TYPE_KEYS[type]]();
  const months = (count: number) => m['mail.months']({ months: count });
  switch (letter.kind) {
    case 'application-received': {
      const { type, duration } = letter.application;
      const amount = {
        monthly: formatCount(AD_PRICE_PER_MONTH_WON),
        months: duration,
        total: formatCount(priceWon(duration)),
      };
      return {
        locale,
        subject: m['mail.received.subject']({ site, number: number(letter.application) }),
        paragraphs: [
          m['mail.received.greeting']({ name: oneLine(letter.applicantName) }),
          m['mail.received.pay']({ days: UNPAID_APPLICATION_DAYS }),
          m['mail.received.follow'](),
        ],
        facts: [
          [m['mail.fact.type'](), adType(type)],
          [m['mail.fact.title'](), oneLine(letter.application.title)],
          [m['mail.fact.duration'](), months(duration)],
          [m['mail.fact.amount'](), m['mail.amount'](amount)],
          [m['mail.fact.account'](), bankAccount ? m['mail.account'](bankAccount) : m['mail.accountByEmail']()],
        ],
        link: statusLink(letter.statusToken),
        note: m['mail.privateLink'](),
      };
    }
    case 'application-admin': {
      const { id, type, duration } = letter.application;
      return {
        locale,
        subject: `[${site}] 새 광고 신청: ${adType(type)} (${number(letter.application)})`,
        paragraphs: ['새 광고 신청이 들어왔습니다. 관리자 화면에서 검토해주세요.'],
        facts: [
          [m['mail.fact.type'](), adType(type)],
          [m['mail.fact.title'](), oneLine(letter.application.title)],
          ['신청인', oneLine(letter.applicantName)],
          [m['mail.fact.duration'](), months(duration)],
        ],
        link: { label: '신청 검토하기', url: `${baseUrl}/admin-only/ads/${type}/confirm/${id}` },
      };
    }
    case 'approved': {
      // The paid period ends at an exclusive instant: its last day is the day before it.
      const from = kstDate(locale, letter.startsAt);
      const to = kstDate(locale, new Date(letter.endsAt.getTime() - 1));
      return {
        locale,
        subject: m['mail.approved.subject']({ site, number: number(letter.application) }),
        paragraphs: [m['mail.approved.text']()],
        facts: [
          [m['mail.fact.type'](), adType(letter.application.type)],
          [m['mail.fact.title'](), oneLine(letter.application.title)],
          [m['mail.fact.period'](), m['mail.period']({ from, to })],
        ],
        link: statusLink(letter.statusToken),
        note: `${m['mail.approved.note']()} ${m['mail.privateLink']()}`,
      };
    }
    case 'rejected':
      return {
        locale,
        subject: m['mail.rejected.subject']({ site, number: number(letter.application) }),
        paragraphs: [m['mail.rejected.text'](), m['mail.rejected.refund']()],
        facts: [
          [m['mail.fact.type'](), adType(letter.application.type)],
          [m['mail.fact.title'](), oneLine(letter.application.title)],
          [m['mail.fact.reason'](), letter.reason ?? m['mail.rejected.noReason']()],
        ],
        link: statusLink(letter.statusToken),
        note: m['mail.privateLink'](),
      };
    case 'inquiry-admin':
      return {
        locale,
        subject: `[${site}] 새 문의 (문의 번호 ${letter.inquiryId})`,
        paragraphs: ['새 문의가 들어왔습니다.'],
        quote: { label: '문의 내용', text: letter.content },
        link: { label: '문의 확인하기', url: `${baseUrl}/admin-only/inquiries` },
      };
    case 'inquiry-reply':
      return {
        locale,
        subject: m['mail.reply.subject']({ site }),
        paragraphs: [letter.reply],
        quote: { label: m['mail.reply.quote']({ date: kstDate(locale, letter.askedAt) }), text: letter.content },
        note: m['mail.reply.note'](),
        link: { label: m['mail.reply.link']({ site }), url: `${baseUrl}/contact` },
      };
  }
}

/**
 * Renders `letter` into its subject and its text and HTML parts. The subject holds nothing a
 * submitter typed (draftOf), and is one line whatever it holds (nodemailer encodes it, RFC 2047).
 */
export function renderLetter(letter: Letter, settings: LetterSettings): RenderedMail {
  const draft = draftOf(letter, settings);
  return {
    kind: letter.kind,
    about: aboutOf(letter),
    subject: oneLine(draft.subject),
    text: textOf(draft),
    html: `<!doctype html>${renderToStaticMarkup(<LetterHtml draft={draft} />)}`,
  };
}

/**
 * `text` on one line: what contract/strings.ts refuses in a one-line field (control characters,
 * U+2028/U+2029, bidi controls) becomes a space, for a value stored before it was refused.
 */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, ' ').trim();
}

function textOf(draft: Draft): string {
  const blocks = [
    ...draft.paragraphs,
    ...(draft.facts ? [draft.facts.map(([label, value]) => `${label}: ${value}`).join('\n')] : []),
    ...(draft.quote ? [`${draft.quote.label}:\n${draft.quote.text.replace(/^/gm, '> ')}`] : []),
    ...(draft.link ? [`${draft.link.label}: ${draft.link.url}`] : []),
    ...(draft.note ? [draft.note] : []),
    `— ${MESSAGES[draft.locale]['mail.site']()}`,
  ];
  return `${blocks.join('\n\n')}\n`;
}

const font = "-apple-system, 'Apple SD Gothic Neo', 'Malgun Gothic', 'Noto Sans KR', sans-serif";

function LetterHtml({ draft }: { draft: Draft }) {
  return (
    <html lang={draft.locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width" />
        <title>{draft.subject}</title>
      </head>
      <body style={{ margin: 0, padding: '24px 16px', background: '#f5f6f8', color: '#1f2328', fontFamily: font }}>
        <div style={{ maxWidth: 560, margin: '0 auto', background: '#ffffff', borderRadius: 8, padding: 24 }}>
          <p style={{ margin: '0 0 16px', fontWeight: 700, color: '#0b5cad' }}>
            {MESSAGES[draft.locale]['mail.site']()}
          </p>
          {draft.paragraphs.map((paragraph, index) => (
            <p key={index} style={{ margin: '0 0 12px', lineHeight: 1.6, whiteSpace: 'pre-line' }}>
              {paragraph}
            </p>
          ))}
          {draft.facts && (
            <table role="presentation" style={{ borderCollapse: 'collapse', margin: '8px 0 16px', width: '100%' }}>
              <tbody>
                {draft.facts.map(([label, value]) => (
                  <tr key={label}>
                    <th style={{ textAlign: 'left', padding: '6px 12px 6px 0', color: '#57606a', fontWeight: 400 }}>
                      {label}
                    </th>
                    <td style={{ padding: '6px 0', fontWeight: 600 }}>{value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {draft.quote && (
            <>
              <p style={{ margin: '16px 0 4px', color: '#57606a' }}>{draft.quote.label}</p>
              <blockquote
                style={{
                  margin: '0 0 16px',
                  padding: '8px 12px',
                  borderLeft: '3px solid #d0d7de',
                  whiteSpace: 'pre-line',
                }}
              >
                {draft.quote.text}
              </blockquote>
            </>
          )}
          {draft.link && (
            <p style={{ margin: '20px 0' }}>
              <a
                href={draft.link.url}
                style={{
                  display: 'inline-block',
                  padding: '10px 16px',
                  background: '#0b5cad',
                  color: '#ffffff',
                  borderRadius: 6,
                  textDecoration: 'none',
                  fontWeight: 600,
                }}
              >
                {draft.link.label}
              </a>
              <br />
              <span style={{ fontSize: 13, color: '#57606a', wordBreak: 'break-all' }}>{draft.link.url}</span>
            </p>
          )}
          {draft.note && <p style={{ margin: '0', fontSize: 13, color: '#57606a', lineHeight: 1.5 }}>{draft.note}</p>}
        </div>
      </body>
    </html>
  );
}
