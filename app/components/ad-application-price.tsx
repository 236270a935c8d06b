/**
 * The price and payment box of the ad application page (docs/product.md §2): the monthly fee, and the
 * bank account to pay into or, until one is configured, that it comes by email.
 */
import type { PublicConfig } from '~/utils/public-config';
import { formatWon, priceWon } from '../../contract/prices';

export function AdPriceNotice({ bankAccount }: { bankAccount: PublicConfig['bankAccount'] }) {
  return (
    <section className="notice-box" aria-labelledby="price-title">
      <h2 id="price-title" className="section-title">
        광고비와 입금 안내
      </h2>
      <p>
        광고비는 <strong>한 달(30일)에 {formatWon(priceWon(1))}</strong>입니다.
        {bankAccount && ' 신청 전에 아래 계좌로 입금해주세요.'}
      </p>
      {bankAccount ? (
        <p className="bank-account">
          {bankAccount.bank} <strong>{bankAccount.number}</strong> (예금주 {bankAccount.holder})
        </p>
      ) : (
        <p className="bank-account bank-account--unset">
          입금 계좌가 아직 등록되지 않았습니다. 신청서를 보내주시면 담당자가 이메일로 계좌를 안내해드립니다.
        </p>
      )}
      <p className="notice-box__small">입금자명은 신청자 이름과 같게 해주세요.</p>
    </section>
  );
}
