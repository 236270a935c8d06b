/**
 * The e-mails (docs/product.md §11 E-mail): what each one says, in Korean, as one letter rendered twice,
 * a plain-text part and an HTML part (server-rendered React, inline styles only, as mail clients
 * need). Links are absolute, on PUBLIC_BASE_URL. Rendered when the row is queued, so a retry or a
 * resend sends the same words.
 */
import { adApplicationTarget, inquiryTarget } from '../admin/audit';
import { renderToStaticMarkup } from 'react-dom/server';
import { AD_PAYMENT, bankAccountText, type BankAccount } from '../../contract/ad-payment';
import { AD_TYPE_LABELS, type AdType } from '../../contract/ads';
import { AD_PRICE_PER_MONTH_WON, formatWon, priceWon } from '../../contract/prices';
import type { MailKind } from '../db/schema';
import { formatKstDate } from '../../contract/kst';
import { formatKoreanDate } from '../../contract/korean-format';

/** The site's name, as the pages' header shows it. */
const SITE_NAME = '외대 버스';

/** What the letters need of the deployment. */
export type LetterSettings = {
  /** PUBLIC_BASE_URL, without a trailing slash. */
  baseUrl: string;
  /** AD_BANK_NAME, AD_BANK_ACCOUNT, AD_BANK_HOLDER; null when not configured. */
  bankAccount: BankAccount | null;
};

/** An application as the letters tell it. */
type Application = { id: number; type: AdType; title: string; duration: number };

/** Every e-mail the product sends, with what it tells. `statusToken` makes the status page link /ads/status/{token}. */
export type Letter =
  | { kind: 'application-received'; application: Application; applicantName: string; statusToken: string }
  | { kind: 'application-admin'; application: Application; applicantName: string }
  | { kind: 'approved'; application: Application; startsAt: Date; endsAt: Date; statusToken: string }
  | { kind: 'rejected'; application: Application; reason: string | null; statusToken: string }
  | { kind: 'inquiry-admin'; inquiryId: number; content: string }
  | { kind: 'inquiry-reply'; inquiryId: number; reply: string; content: string; askedAt: Date };

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

/** The parts of a letter, before rendering: paragraphs, labelled facts, one link. */
type Draft = {
  subject: string;
  paragraphs: string[];
  facts?: [label: string, value: string][];
  link?: { label: string; url: string };
  /** A quoted text (the inquiry being replied to). */
  quote?: { label: string; text: string };
  /** Small print under the link. */
  note?: string;
};

/** An instant's KST day as Korean copy: "2026년 11월 26일". */
const kstDate = (instant: Date) => formatKoreanDate(formatKstDate(instant));

const PRIVATE_LINK_NOTE = '이 링크는 신청하신 분만 보도록 만든 비공개 링크입니다. 다른 사람과 공유하지 마세요.';

/** An application's number as subjects name it: its id, which the system gave it. */
const applicationNo = (application: Application) => `신청 번호 ${application.id}`;

/**
 * The parts of `letter`. A subject is fixed words and what the system made (ids, the ad type's
 * name), never what a submitter typed: a subject is what a phishing mail forges first. What they
 * typed on one line (a title, a name) is one line in the body too (oneLine), whatever was stored.
 */
function draftOf(letter: Letter, { baseUrl, bankAccount }: LetterSettings): Draft {
  const statusLink = (token: string) => ({ label: '신청 현황 보기', url: `${baseUrl}/ads/status/${token}` });
  switch (letter.kind) {
    case 'application-received': {
      const { type, duration } = letter.application;
      const title = oneLine(letter.application.title);
      return {
        subject: `[${SITE_NAME}] 광고 신청을 받았습니다 (${applicationNo(letter.application)})`,
        paragraphs: [
          `${oneLine(letter.applicantName)}님, 광고 신청을 받았습니다.`,
          `아래 금액을 계좌 이체로 입금해주세요. ${AD_PAYMENT.approvalAfterDeposit} ${AD_PAYMENT.payerName} ${AD_PAYMENT.unpaidDeadline}`,
          '검토 결과와 진행 상황은 아래 링크에서 언제든 확인할 수 있습니다.',
        ],
        facts: [
          ['광고 유형', AD_TYPE_LABELS[type]],
          ['제목', title],
          ['기간', `${duration}개월`],
          ['금액', `${formatWon(AD_PRICE_PER_MONTH_WON)} × ${duration}개월 = ${formatWon(priceWon(duration))}`],
          ['입금 계좌', bankAccount ? bankAccountText(bankAccount) : '담당자가 이 이메일 주소로 따로 알려드립니다.'],
        ],
        link: statusLink(letter.statusToken),
        note: PRIVATE_LINK_NOTE,
      };
    }
    case 'application-admin': {
      const { id, type, duration } = letter.application;
      const title = oneLine(letter.application.title);
      return {
        subject: `[${SITE_NAME}] 새 광고 신청: ${AD_TYPE_LABELS[type]} (${applicationNo(letter.application)})`,
        paragraphs: ['새 광고 신청이 들어왔습니다. 관리자 화면에서 검토해주세요.'],
        facts: [
          ['광고 유형', AD_TYPE_LABELS[type]],
          ['제목', title],
          ['신청인', oneLine(letter.applicantName)],
          ['기간', `${duration}개월`],
        ],
        link: { label: '신청 검토하기', url: `${baseUrl}/admin-only/ads/${type}/confirm/${id}` },
      };
    }
    case 'approved': {
      const { type } = letter.application;
      const title = oneLine(letter.application.title);
      return {
        subject: `[${SITE_NAME}] 광고가 승인되었습니다 (${applicationNo(letter.application)})`,
        paragraphs: ['입금을 확인해 신청하신 광고를 승인했습니다. 아래 게재 기간 동안 광고가 실립니다.'],
        facts: [
          ['광고 유형', AD_TYPE_LABELS[type]],
          ['제목', title],
          // The paid period ends at an exclusive instant: its last day is the day before it.
          ['게재 기간', `${kstDate(letter.startsAt)} ~ ${kstDate(new Date(letter.endsAt.getTime() - 1))}`],
        ],
        link: statusLink(letter.statusToken),
        note: `게재가 시작되면 같은 링크에서 하루 단위 노출 수와 클릭 수를 볼 수 있습니다. ${PRIVATE_LINK_NOTE}`,
      };
    }
    case 'rejected': {
      const { type } = letter.application;
      const title = oneLine(letter.application.title);
      return {
        subject: `[${SITE_NAME}] 광고 신청 검토 결과를 알려드립니다 (${applicationNo(letter.application)})`,
        paragraphs: [
          '죄송하지만 신청하신 광고는 게재하지 않기로 했습니다.',
          '이미 입금하셨다면 환불 요청이나 궁금한 점을 사이트의 문의하기에 남겨주세요.',
        ],
        facts: [
          ['광고 유형', AD_TYPE_LABELS[type]],
          ['제목', title],
          ['사유', letter.reason ?? '따로 적힌 사유가 없습니다.'],
        ],
        link: statusLink(letter.statusToken),
        note: PRIVATE_LINK_NOTE,
      };
    }
    case 'inquiry-admin':
      return {
        subject: `[${SITE_NAME}] 새 문의 (문의 번호 ${letter.inquiryId})`,
        paragraphs: ['새 문의가 들어왔습니다.'],
        quote: { label: '문의 내용', text: letter.content },
        link: { label: '문의 확인하기', url: `${baseUrl}/admin-only/inquiries` },
      };
    case 'inquiry-reply':
      return {
        subject: `[${SITE_NAME}] 문의하신 내용에 답변드립니다`,
        paragraphs: [letter.reply],
        quote: { label: `${kstDate(letter.askedAt)}에 보내신 문의`, text: letter.content },
        note: '이 메일에는 회신할 수 없습니다. 더 궁금한 점은 사이트의 문의하기에서 알려주세요.',
        link: { label: `${SITE_NAME} 문의하기`, url: `${baseUrl}/contact` },
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
    `— ${SITE_NAME}`,
  ];
  return `${blocks.join('\n\n')}\n`;
}

const font = "-apple-system, 'Apple SD Gothic Neo', 'Malgun Gothic', 'Noto Sans KR', sans-serif";

function LetterHtml({ draft }: { draft: Draft }) {
  return (
    <html lang="ko">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width" />
        <title>{draft.subject}</title>
      </head>
      <body style={{ margin: 0, padding: '24px 16px', background: '#f5f6f8', color: '#1f2328', fontFamily: font }}>
        <div style={{ maxWidth: 560, margin: '0 auto', background: '#ffffff', borderRadius: 8, padding: 24 }}>
          <p style={{ margin: '0 0 16px', fontWeight: 700, color: '#0b5cad' }}>{SITE_NAME}</p>
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
