/**
 * /faq: six questions and answers about this product and an inquiry box (docs/product.md §2.6 FAQ). Native details/summary, so every item opens and closes without JavaScript, by keyboard
 * too. The predictions' answer carries the accuracy of the last 14 service days from the api
 * (GET /api/bus/accuracy, its daily backtest), led by the down tab's sentence; when that
 * call fails the figure is left out (logged), and when the api has no figure yet the answer says so.
 * In the page's language (docs/product.md §1 Languages; ADR 032): the words from the faq catalog,
 * the payment's from the ads catalog (the ad pages' own sentences, one wording wherever it is told), the
 * stop in English beside its sign's Korean.
 */
import { json, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData, useLocation, type MetaFunction } from '@remix-run/react';
import { useEffect, type ReactNode } from 'react';
import { AD_DURATIONS, AD_MONTH_DAYS } from '../../contract/ads';
import { STOP_NAMES } from '../../contract/transit';
import { UNPAID_APPLICATION_DAYS } from '../../contract/privacy';
import { FaqAccuracy } from '~/components/faq-accuracy';
import { RouteError } from '~/components/route-error';
import { StopName } from '~/components/stop-name';
import { getPredictionAccuracy } from '~/models/bus.server';
import { REFRESH_INTERVAL_SEC } from '~/utils/countdown';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { priceWon } from '../../contract/prices';
import { joined, metaT, useT } from '~/i18n/i18n';
import { richText, type TagRenderers } from '~/i18n/rich-text';
import { bankAccountTags } from '~/components/ad-price-notice';
import ads from '~/i18n/compiled/ko/ads.js';
import common from '~/i18n/compiled/ko/common.js';
import faq from '~/i18n/compiled/ko/faq.js';
import { formatCount } from '../../contract/korean-format';
import { consoleFor } from '../../lib/observability/request-tag';

/**
 * `accuracy` is null when the api could not give it (the figure is then left out); its figures are
 * null when the api has no history yet. `bankAccount` (AD_BANK_*) is the account the ad answer
 * gives, null until one is configured (the answer then says the reviewer e-mails it). The page is public and cacheable, except when the figure
 * failed or is not computed yet: that page is not kept, so the next visitor gets the figure.
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const accuracy = await getPredictionAccuracy(context).catch((error: unknown) => {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[faq] prediction accuracy unavailable:', error.message);
    return null;
  });
  const cacheControl = accuracy?.computedAt ? 'public, max-age=300' : 'no-store';
  const bankAccount = context.publicConfig?.bankAccount ?? null;
  return json({ accuracy, bankAccount }, { headers: { 'Cache-Control': cacheControl } });
}

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** Emphasis and the links, as the answers' messages mark them. */
const TAGS: TagRenderers = {
  strong: (words) => <strong>{words}</strong>,
  apply: (words) => <Link to="/ads/apply">{words}</Link>,
  contact: (words) => <Link to="/contact">{words}</Link>,
  privacy: (words) => <Link to="/privacypolicy">{words}</Link>,
  stop: () => <StopName name={STOP_NAMES.up[0]} />,
};

export default function Faq() {
  const { accuracy, bankAccount } = useLoaderData<typeof loader>();
  const t = useT(faq);
  const pay = useT(ads);
  const { hash } = useLocation();
  // A link to something inside an answer (the down tab's /faq#accuracy) opens its item. The browser
  // does so itself on a document load; a client-side navigation needs this.
  useEffect(() => {
    const target = hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    const item = target?.closest('details');
    if (!target || !item) return;
    item.open = true;
    target.scrollIntoView({ block: 'start' });
  }, [hash]);
  const rich = (text: string) => richText(text, TAGS);
  const price = pay('price.won', { amount: formatCount(priceWon(1)) });
  const durations = listed(AD_DURATIONS.map(String), t);
  const payment = [
    pay('pay.afterApplying'),
    pay('pay.approvalAfterDeposit'),
    bankAccount
      ? richText(pay('pay.accountSentence', bankAccount), bankAccountTags(bankAccount))
      : pay('pay.accountByEmail'),
    pay('pay.unpaidDeadline', { days: UNPAID_APPLICATION_DAYS }),
  ];
  return (
    <div className="page">
      <h1 className="page__title">{t('faq.title')}</h1>
      <p className="page__lead">{t('faq.lead')}</p>

      <div className="faq__list">
        <Question text={t('faq.sourceQ')}>
          <p>{t('faq.source')}</p>
          <p>{t('faq.demo')}</p>
        </Question>

        <Question text={t('faq.refreshQ')}>
          <p>{rich(t('faq.refresh', { seconds: REFRESH_INTERVAL_SEC }))}</p>
          <p>{t('faq.polling')}</p>
        </Question>

        <Question text={t('faq.estimateQ')}>
          <p>{t('faq.estimateIntro')}</p>
          <ul className="faq__bullets">
            <li>{rich(t('faq.dayBefore'))}</li>
            <li>{rich(t('faq.weekBefore'))}</li>
            <li>{rich(t('faq.estimate'))}</li>
          </ul>
          <p>{rich(t('faq.live'))}</p>
          <p>{t('faq.basis')}</p>
          <p id="range">{t('faq.range')}</p>
          {accuracy && <FaqAccuracy accuracy={accuracy} />}
        </Question>

        <Question text={t('faq.adsQ')}>
          <p>{rich(t('faq.ads', { days: AD_MONTH_DAYS, price, durations }))}</p>
          <p>{joined(payment, ' ')}</p>
          <p>{t('faq.adsStatus')}</p>
        </Question>

        <Question text={t('faq.bugQ')}>
          <p>{rich(t('faq.bug'))}</p>
        </Question>

        <Question text={t('faq.privacyQ')}>
          <p>{t('faq.privacy')}</p>
          <p>{rich(t('faq.privacyMore'))}</p>
        </Question>
      </div>

      <section className="notice-box faq__inquiry" aria-labelledby="inquiry-title">
        <h2 id="inquiry-title" className="section-title">
          {t('faq.inquiryTitle')}
        </h2>
        <p>{t('faq.inquiryText')}</p>
        <Link to="/contact" className="button">
          {t('faq.inquiryButton')}
        </Link>
      </section>
    </div>
  );
}

/** One question: a native details element, closed, its summary the question and the answer below. */
function Question({ text, children }: { text: string; children: ReactNode }) {
  return (
    <details className="faq__item">
      <summary className="faq__question">{text}</summary>
      <div className="faq__answer">{children}</div>
    </details>
  );
}

/** `items` (at least one) as a list in `t`'s words: "1·2·3" in Korean, "1, 2 or 3" in English. */
function listed(items: string[], t: (key: 'faq.listSeparator' | 'faq.listLast') => string): string {
  const rest = items.slice(0, -1).join(t('faq.listSeparator'));
  return rest ? `${rest}${t('faq.listLast')}${items.at(-1)}` : items.join('');
}

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches, faq);
  const name = metaT(matches, common)('site.name');
  return [{ title: `${t('faq.title')} — ${name}` }, { name: 'description', content: t('faq.description', { name }) }];
};

export function ErrorBoundary() {
  return <RouteError />;
}
