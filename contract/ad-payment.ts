/**
 * How an ad is paid for (docs/product.md §2.5, §4.4, §3.12): apply → pay by bank transfer under the
 * applicant's name → an admin finds the deposit and approves → the paid period starts at approval.
 * Paying first cannot be asked for: without AD_BANK_* the account is only known after applying. An
 * application left unpaid is deleted after UNPAID_APPLICATION_DAYS (contract/privacy.ts). The words
 * are the catalogs' (ADR 032): the pages' `pay.*` (app/i18n/messages/{locale}/ads.json) and the
 * e-mails' (api/mail/messages/{locale}.json).
 */

/** The transfer account (AD_BANK_NAME, AD_BANK_ACCOUNT, AD_BANK_HOLDER). */
export type BankAccount = { bank: string; number: string; holder: string };
