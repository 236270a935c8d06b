/**
 * The price and payment box of the ad application page (docs/product.md §2.5): the monthly fee, the
 * order of things (contract/ad-payment.ts: apply, pay, approval after the deposit), and the bank
 * account to pay into or, until one is configured, that the reviewer e-mails it.
 */
import type { PublicConfig } from '~/utils/public-config';
import { AD_PAYMENT } from '../../contract/ad-payment';
import { formatWon, priceWon } from '../../contract/prices';

export function AdPriceNotice({ bankAccount }: { bankAccount: PublicConfig['bankAccount'] }) {
  return (
    <section className="notice-box" aria-labelledby="price-title">
      <h2 id="price-title" className="section-title">
        광고비와 입금 안내
      </h2>
      <p>
        광고비는 <strong>한 달(30일)에 {formatWon(priceWon(1))}</strong>입니다. {AD_PAYMENT.payAfterApplying}{' '}
        {AD_PAYMENT.approvalAfterDeposit}
      </p>
      {bankAccount ? (
        <p className="bank-account">
          입금 계좌: {bankAccount.bank} <strong>{bankAccount.number}</strong> (예금주 {bankAccount.holder})
        </p>
      ) : (
        <p className="bank-account bank-account--unset">{AD_PAYMENT.accountByEmail}</p>
      )}
      <p className="notice-box__small">
        {AD_PAYMENT.payerName} {AD_PAYMENT.unpaidDeadline}
      </p>
    </section>
  );
}
