/** What the admin pages say of the e-mail (the mail page and the admin home). */
import { formatKstDateTime } from '../../contract/kst';

/** E-mail is off: the api has no SMTP_URL (README, E-mail). */
export const MAIL_OFF = 'SMTP_URL이 설정되지 않아 이메일을 보내지 않습니다.';

/** Sends have failed since `since` (ISO): "2026-11-29 14:05:10부터 메일을 보내지 못하고 있습니다." (KST). */
export function sendingFailedSince(since: string): string {
  return `${formatKstDateTime(since)}부터 메일을 보내지 못하고 있습니다.`;
}
