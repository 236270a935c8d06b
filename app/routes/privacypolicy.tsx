/**
 * /privacypolicy: the privacy policy (개인정보 처리방침; docs/product.md §2.9 Privacy policy, §9), in numbered
 * articles: what is collected (analytics data, the inquiry e-mail, the ad applicant's name, phone
 * and e-mail, the client IP for the rate limits and in the admin sign-in log, the username tried at
 * a sign-in in its limits, the one-way code of address and User-Agent that counts an ad once a day,
 * the one-way code of address kept with an uploaded ad image for each address's room, ADR 027),
 * purposes, retention (contract/privacy.ts: ad applications 3 years, or 30 days while unpaid
 * (UNPAID_APPLICATION_DAYS, the upload code as long), inquiries 1 year, the sign-in IP 1 year, all
 * enforced by the api's retention job, api/privacy/retention.ts; the rate-limit IP and username
 * within 2 hours, by rate-limiter-flexible's sweep; the ad count code about 25 hours,
 * DAILY_COUNT_CODE_HOURS), destruction, no third-party sharing, no outsourcing,
 * the person's rights through /contact (a deletion is done with the admin pages' delete), cookies
 * and analytics (what this deployment really uses: the admin cookie, and Google Analytics only when
 * ANALYTICS_ID is set), the privacy officer from env (PRIVACY_OFFICER_*; unset → /contact), the
 * 7-day change notice and the effective date. Static per deployment, so cacheable. In the page's
 * language (docs/product.md §1 Languages, §2.9; ADR 032), the words from the privacy catalog; the
 * English says first that it is a translation and that the Korean text is the binding one.
 */
import { json, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData, type MetaFunction } from '@remix-run/react';
import type { ReactNode } from 'react';
import {
  MAIL_RETENTION_DAYS,
  PUSH_SUBSCRIPTION_MAX_HOURS,
  RATE_LIMIT_IP_HOURS,
  RETENTION_YEARS,
  UNPAID_APPLICATION_DAYS,
} from '../../contract/privacy';
import { RouteError } from '~/components/route-error';
import { metaT, useLocale, useT } from '~/i18n/i18n';
import { richText, type TagRenderers } from '~/i18n/rich-text';
import common from '~/i18n/compiled/ko/common.js';
import privacy from '~/i18n/compiled/ko/privacy.js';
import { formatEnglishDate, formatKoreanDate } from '../../contract/korean-format';

/** docs/product.md §2, §9: the policy's effective date (KST calendar date). */
const EFFECTIVE_DATE = '2024-06-04';
/** docs/product.md §9: changes are announced this many days before they take effect. */
const CHANGE_NOTICE_DAYS = 7;
/**
 * About how long, in hours, the codes that count something once a day are kept: an ad's view or
 * click (api/ads/counted-once.ts, ADR 018) and the e-mails to one address (api/mail/recipient-limit.ts).
 * Each lives 24 hours and rate-limiter-flexible's sweep deletes it within the hour after.
 */
const DAILY_COUNT_CODE_HOURS = 25;

export async function loader({ context }: LoaderFunctionArgs) {
  const config = context.publicConfig;
  return json({ privacyOfficer: config?.privacyOfficer ?? null, analytics: Boolean(config?.analyticsId) });
}

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'public, max-age=300' });

export default function PrivacyPolicy() {
  const { privacyOfficer, analytics } = useLoaderData<typeof loader>();
  const t = useT(privacy);
  const name = useT(common)('site.name');
  const locale = useLocale();
  const effectiveDate = (locale === 'en' ? formatEnglishDate : formatKoreanDate)(EFFECTIVE_DATE);
  const hours = RATE_LIMIT_IP_HOURS;
  const shown = { analytics: analytics ? 'yes' : 'no' };
  return (
    <div className="page">
      <h1 className="page__title">{t('privacy.title')}</h1>
      {locale === 'en' && (
        <p className="notice-box" role="note">
          {richText(t('privacy.binding'), {
            korean: (words) => (
              <a href="/language/ko?back=%2Fprivacypolicy" hrefLang="ko">
                {words}
              </a>
            ),
          })}
        </p>
      )}
      <p className="page__lead">{t('privacy.lead', { name })}</p>

      <Article number={1} title={t('privacy.a1.title')}>
        <ul className="policy__list">
          <Item text={t('privacy.a1.ads')} />
          <Item text={t('privacy.a1.inquiry')} />
          <Item text={t('privacy.a1.automatic', { hours, ...shown })} />
          <Item text={t('privacy.a1.adminSignIn', { years: RETENTION_YEARS.adminSignInIp, hours })} />
          <Item text={t('privacy.a1.adCount', { hours: DAILY_COUNT_CODE_HOURS })} />
          <Item text={t('privacy.a1.mailCount', { hours: DAILY_COUNT_CODE_HOURS })} />
          <Item text={t('privacy.a1.upload', { days: UNPAID_APPLICATION_DAYS })} />
          <Item text={t('privacy.a1.reminders')} />
        </ul>
        {!analytics && <p>{t('privacy.a1.noAnalytics')}</p>}
      </Article>

      <Article number={2} title={t('privacy.a2.title')}>
        <ul className="policy__list">
          <li>{t('privacy.a2.ads')}</li>
          <li>{t('privacy.a2.inquiry')}</li>
          <li>{t('privacy.a2.ip')}</li>
          <li>{t('privacy.a2.adminSignIn')}</li>
          <li>{t('privacy.a2.adCount')}</li>
          <li>{t('privacy.a2.upload')}</li>
          <li>{t('privacy.a2.mailCount')}</li>
          <li>{t('privacy.a2.reminders')}</li>
          {analytics && <li>{t('privacy.a2.analytics')}</li>}
        </ul>
        <p>{t('privacy.a2.limit')}</p>
      </Article>

      <Article number={3} title={t('privacy.a3.title')}>
        <ul className="policy__list">
          <Item text={t('privacy.a3.ads', { years: RETENTION_YEARS.adApplication, days: UNPAID_APPLICATION_DAYS })} />
          <Item text={t('privacy.a3.inquiry', { years: RETENTION_YEARS.inquiry })} />
          <Item text={t('privacy.a3.adminSignIn', { years: RETENTION_YEARS.adminSignInIp })} />
          <Item text={t('privacy.a3.rateLimit', { hours })} />
          <Item text={t('privacy.a3.adCount', { hours: DAILY_COUNT_CODE_HOURS })} />
          <Item text={t('privacy.a3.mailCount', { hours: DAILY_COUNT_CODE_HOURS })} />
          <Item text={t('privacy.a3.upload', { days: UNPAID_APPLICATION_DAYS })} />
          <Item text={t('privacy.a3.mail', { days: MAIL_RETENTION_DAYS })} />
          <Item text={t('privacy.a3.reminders', { hours: PUSH_SUBSCRIPTION_MAX_HOURS })} />
        </ul>
        <p>{t('privacy.a3.deletion')}</p>
      </Article>

      <Article number={4} title={t('privacy.a4.title')}>
        <p>{t('privacy.a4.text')}</p>
      </Article>

      <Article number={5} title={t('privacy.a5.title')}>
        <p>{t('privacy.a5.text')}</p>
      </Article>

      <Article number={6} title={t('privacy.a6.title')}>
        <p>{t('privacy.a6.push')}</p>
        <p>{t('privacy.a6.text')}</p>
      </Article>

      <Article number={7} title={t('privacy.a7.title')}>
        <p>{richText(t('privacy.a7.text'), CONTACT_LINK)}</p>
      </Article>

      <Article number={8} title={t('privacy.a8.title')}>
        <ul className="policy__list">
          <li>{t('privacy.a8.session', shown)}</li>
          <li>{t('privacy.a8.statusLink')}</li>
          <li>{t('privacy.a8.language')}</li>
          <li>{t('privacy.a8.storage')}</li>
          <li>{t('privacy.a8.reminders')}</li>
          <li>{t(analytics ? 'privacy.a8.analytics' : 'privacy.a8.noAnalytics')}</li>
        </ul>
      </Article>

      <Article number={9} title={t('privacy.a9.title')}>
        <p>{t('privacy.a9.text')}</p>
      </Article>

      <Article number={10} title={t('privacy.a10.title')}>
        {privacyOfficer ? (
          <dl className="policy__officer">
            <div>
              <dt>{t('privacy.a10.name')}</dt>
              <dd>{privacyOfficer.name}</dd>
            </div>
            <div>
              <dt>{t('privacy.a10.email')}</dt>
              <dd>
                <a href={`mailto:${privacyOfficer.email}`}>{privacyOfficer.email}</a>
              </dd>
            </div>
          </dl>
        ) : (
          <p>{richText(t('privacy.a10.contact'), CONTACT_LINK)}</p>
        )}
        <p>{t('privacy.a10.note')}</p>
      </Article>

      <Article number={11} title={t('privacy.a11.title')}>
        <p>{t('privacy.a11.intro')}</p>
        <ul className="policy__list">
          <li>{t('privacy.a11.kopico')}</li>
          <li>{t('privacy.a11.kisa')}</li>
          <li>{t('privacy.a11.spo')}</li>
          <li>{t('privacy.a11.police')}</li>
        </ul>
      </Article>

      <Article number={12} title={t('privacy.a12.title')}>
        <p>{richText(t('privacy.a12.text', { days: CHANGE_NOTICE_DAYS }), STRONG)}</p>
      </Article>

      <p className="policy__effective">
        {richText(t('privacy.effective'), { date: () => <time dateTime={EFFECTIVE_DATE}>{effectiveDate}</time> })}
      </p>
    </div>
  );
}

/** Emphasis, as the policy's messages mark it. */
const STRONG: TagRenderers = { strong: (words) => <strong>{words}</strong> };
/** The link to /contact, as the policy's messages mark it. */
const CONTACT_LINK: TagRenderers = { contact: (words) => <Link to="/contact">{words}</Link> };

/** A list item of the policy: `text`, a message whose emphasis is marked `<strong>`. */
function Item({ text }: { text: string }) {
  return <li>{richText(text, STRONG)}</li>;
}

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches, privacy);
  const name = metaT(matches, common)('site.name');
  return [
    { title: `${t('privacy.title')} — ${name}` },
    { name: 'description', content: t('privacy.description', { name }) },
  ];
};

export function ErrorBoundary() {
  return <RouteError />;
}

/** One numbered article of the policy (제N조, "Article N"), a section named by its heading. */
function Article({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  const t = useT(privacy);
  return (
    <section className="policy__article" aria-labelledby={`article-${number}`}>
      <h2 id={`article-${number}`} className="section-title">
        {t('privacy.article', { number, title })}
      </h2>
      {children}
    </section>
  );
}
