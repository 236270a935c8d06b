/**
 * How an ad is paid for (docs/product.md §2.5, §4.4, §3.12), in one wording for every place that
 * tells it: the FAQ, the application page, the status page and the applicant's e-mails. The order is
 * apply → pay by bank transfer under the applicant's name → an admin finds the deposit and approves →
 * the paid period starts at approval. Paying first cannot be asked for: without AD_BANK_* the
 * account is only known after applying. An application left unpaid is deleted after
 * UNPAID_APPLICATION_DAYS (contract/privacy.ts). Free of zod: the pages and the api's e-mails import it.
 */
import { UNPAID_APPLICATION_DAYS } from './privacy';

/** The transfer account (AD_BANK_NAME, AD_BANK_ACCOUNT, AD_BANK_HOLDER). */
export type BankAccount = { bank: string; number: string; holder: string };

export const AD_PAYMENT = {
  /** What the applicant does, and when. */
  payAfterApplying: '신청서를 보낸 뒤 광고비를 계좌 이체로 입금해주세요.',
  /** What the admins do with the deposit, and when the ad runs. */
  approvalAfterDeposit: '입금을 확인하면 광고를 승인하고, 승인한 날부터 게재 기간이 시작됩니다.',
  /** Where the account comes from while AD_BANK_* are not set: the admin who reviews writes to the applicant. */
  accountByEmail: '입금 계좌는 신청을 받은 뒤 담당자가 입력하신 이메일로 알려드립니다.',
  payerName: '입금자명은 신청자 이름과 같게 해주세요.',
  /** What becomes of an application never paid (the retention job, api/privacy/retention.ts). */
  unpaidDeadline: `신청한 날부터 ${UNPAID_APPLICATION_DAYS}일 안에 입금이 확인되지 않은 신청은 이미지와 함께 삭제됩니다.`,
} as const;

/** The account as copy: "농협 351-1234-5678-90 (예금주 캠퍼스버스)". */
export function bankAccountText({ bank, number, holder }: BankAccount): string {
  return `${bank} ${number} (예금주 ${holder})`;
}

/** Where to pay, as a sentence: the account when configured, else that the reviewer e-mails it. */
export function accountSentence(account: BankAccount | null): string {
  return account ? `입금 계좌는 ${bankAccountText(account)}입니다.` : AD_PAYMENT.accountByEmail;
}
