/**
 * The price and payment box of the ad application page (docs/product.md §2.5): the monthly fee, the
 * order of things (apply, pay, approval after the deposit; contract/ad-payment.ts), and the bank
 * account to pay into or, until one is configured, that the reviewer e-mails it. In the page's
 * language (ADR 032).
 */
import type { PublicConfig } from '~/utils/public-config';
import { KoreanText, useT } from '~/i18n/i18n';
import { richText, type TagRenderers } from '~/i18n/rich-text';
import type { BankAccount } from '../../contract/ad-payment';
import ads from '~/i18n/compiled/ko/ads.js';
import { formatCount } from '../../contract/korean-format';
import { priceWon } from '../../contract/prices';
import { UNPAID_APPLICATION_DAYS } from '../../contract/privacy';

const strong = (words: string) => <strong>{words}</strong>;

/**
 * The tags of the bank account's messages (`<bank/>`, `<holder/>`): the configured names as entered,
 * marked Korean on an English page when they are (KoreanText).
 */
export const bankAccountTags = ({ bank, holder }: BankAccount): TagRenderers => ({
  bank: () => <KoreanText>{bank}</KoreanText>,
  holder: () => <KoreanText>{holder}</KoreanText>,
  strong,
});

export function AdPriceNotice({ bankAccount }: { bankAccount: PublicConfig['bankAccount'] }) {
  const t = useT(ads);
  const price = t('price.won', { amount: formatCount(priceWon(1)) });
  return (
    <section className="notice-box" aria-labelledby="price-title">
      <h2 id="price-title" className="section-title">
        {t('pay.title')}
      </h2>
      <p>
        {richText(t('pay.monthly', { price }), { strong })} {t('pay.afterApplying')} {t('pay.approvalAfterDeposit')}
      </p>
      {bankAccount ? (
        <p className="bank-account">{richText(t('pay.account', bankAccount), bankAccountTags(bankAccount))}</p>
      ) : (
        <p className="bank-account bank-account--unset">{t('pay.accountByEmail')}</p>
      )}
      <p className="notice-box__small">
        {t('pay.payerName')} {t('pay.unpaidDeadline', { days: UNPAID_APPLICATION_DAYS })}
      </p>
    </section>
  );
}
