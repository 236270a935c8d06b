/**
 * /howtouse: the usage guide (docs/product.md §2.8 Usage guide, §1). The spec's five steps, the
 * note that real times vary with traffic and events, and sample bus data (docs/product.md §3.1 Bus arrival:
 * routeNo, time, location) typed by the contract and drawn by the home screen's own ArrivalCards,
 * so the guide shows exactly what the home shows. The refresh interval is the countdown's constant
 * (the reference said 5 seconds while it refreshed every 4). Static: no loader, works without
 * JavaScript, cacheable. In the page's language (docs/product.md §1 Languages; ADR 032): the words
 * from the howto catalog, the stops in English beside their signs' Korean.
 */
import type { HeadersFunction } from '@remix-run/node';
import { Link, type MetaFunction } from '@remix-run/react';
import type { ReactNode } from 'react';
import type { UpRoute } from '../../contract/bus';
import { STOP_NAMES } from '../../contract/transit';
import { ArrivalCards } from '~/components/arrival-cards';
import { RouteError } from '~/components/route-error';
import { StopName, StopNames } from '~/components/stop-name';
import { metaT, useT } from '~/i18n/i18n';
import { richText } from '~/i18n/rich-text';
import common from '~/i18n/compiled/ko/common.js';
import home from '~/i18n/compiled/ko/home.js';
import howto from '~/i18n/compiled/ko/howto.js';
import { REFRESH_INTERVAL_SEC } from '~/utils/countdown';

/** docs/product.md §3.1 Bus arrival as the api sends it: a close bus (red, 곧 도착), a later one, and one without information. */
const SAMPLE_ARRIVALS = [
  { routeNo: '1150', time: 3, location: 2 },
  { routeNo: '1117', time: 12, location: 6 },
  { routeNo: '1303', time: 0, location: 0 },
] satisfies UpRoute[];

const [SAMPLE] = SAMPLE_ARRIVALS;

/** The stop the up arrivals count to (docs/product.md §3.1 Bus arrival): the up line's first. */
const UP_STOP = STOP_NAMES.up[0];

/** Emphasis, as the steps' messages mark it. */
const strong = (words: string) => <strong>{words}</strong>;

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'public, max-age=300' });

export default function HowToUse() {
  const t = useT(howto);
  const name = useT(common)('site.name');
  const homeT = useT(home);
  const seconds = REFRESH_INTERVAL_SEC;
  const steps = [
    {
      title: t('howto.step1Title'),
      text: richText(t('howto.step1'), { home: (words) => <Link to="/">{words}</Link> }),
    },
    {
      title: t('howto.step2Title'),
      text: richText(t('howto.step2'), {
        strong,
        up: () => <StopNames names={STOP_NAMES.up} />,
        down: () => <StopNames names={STOP_NAMES.down} />,
      }),
    },
    { title: t('howto.step3Title'), text: richText(t('howto.step3', { seconds }), { strong }) },
    { title: t('howto.step4Title'), text: t('howto.step4', { name, button: homeT('times.open') }) },
    {
      title: t('howto.step5Title'),
      text: richText(t('howto.step5'), {
        faq: (words) => <Link to="/faq">{words}</Link>,
        contact: (words) => <Link to="/contact">{words}</Link>,
      }),
    },
  ];
  /** docs/product.md §3's three fields of an arrival, explained with the first sample's values. */
  const fields: { field: keyof typeof SAMPLE; meaning: ReactNode; example: string }[] = [
    { field: 'routeNo', meaning: t('howto.routeNo'), example: homeT('up.route', { routeNo: SAMPLE.routeNo }) },
    {
      field: 'time',
      meaning: richText(t('howto.time', { soon: homeT('up.soon'), noInfo: homeT('up.noInfo') }), {
        stop: () => <StopName name={UP_STOP} />,
      }),
      example: homeT('up.minutes', { minutes: SAMPLE.time }),
    },
    {
      field: 'location',
      meaning: richText(t('howto.location'), { stop: () => <StopName name={UP_STOP} /> }),
      example: homeT('up.stopsAway', { stops: SAMPLE.location }),
    },
  ];
  return (
    <div className="page">
      <h1 className="page__title">{t('howto.title')}</h1>
      <p className="page__lead">{t('howto.lead', { name })}</p>

      <ol className="guide__steps">
        {steps.map(({ title, text }) => (
          <li key={title} className="guide__step">
            <h2 className="section-title">{title}</h2>
            <p>{text}</p>
          </li>
        ))}
      </ol>

      <p className="notice-box" role="note">
        {t('howto.note')}
      </p>

      <section aria-labelledby="sample-title">
        <h2 id="sample-title" className="section-title">
          {t('howto.sampleTitle')}
        </h2>
        <p>{t('howto.sampleIntro')}</p>
        <figure className="guide__figure">
          <figcaption className="notice-box__small">{t('howto.sampleCaption')}</figcaption>
          <ArrivalCards routes={SAMPLE_ARRIVALS} />
        </figure>
        <table className="guide__fields">
          <caption className="sr-only">{t('howto.fieldsCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('howto.fieldHead')}</th>
              <th scope="col">{t('howto.meaningHead')}</th>
              <th scope="col">{t('howto.exampleHead')}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map(({ field, meaning, example }) => (
              <tr key={field}>
                <th scope="row">
                  <code>{field}</code>
                </th>
                <td>{meaning}</td>
                <td>{example}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches, howto);
  const name = metaT(matches, common)('site.name');
  return [
    { title: `${t('howto.title')} — ${name}` },
    { name: 'description', content: t('howto.description', { name, seconds: REFRESH_INTERVAL_SEC }) },
  ];
};

export function ErrorBoundary() {
  return <RouteError />;
}
