/**
 * The private link to an ad application's status page (/ads/status/{token}; docs/product.md §2.5,
 * §11), shown once on /ads/apply after it was taken, in the page's language (ADR 032).
 */
import { useT } from '~/i18n/i18n';
import ads from '~/i18n/compiled/ko/ads.js';

/** `url`: the status page's absolute URL; `emailed`: whether the receipt e-mail carries it too. */
export function AdStatusLinkNotice({ url, emailed }: { url: string; emailed: boolean }) {
  const t = useT(ads);
  return (
    <section className="notice-box" aria-labelledby="status-link-title">
      <h2 id="status-link-title" className="section-title">
        {t('apply.statusLinkTitle')}
      </h2>
      <p>
        {t('apply.statusLinkText')}
        {emailed && t('apply.statusLinkEmailed')}
      </p>
      <p className="status-link__url">
        <a href={url}>{url}</a>
      </p>
      <p className="notice-box__small">{t('apply.statusLinkCopy')}</p>
    </section>
  );
}
