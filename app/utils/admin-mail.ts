/** What the admin pages say of the e-mail (the mail page and the admin home). */

/** E-mail is off: the api has no SMTP_URL (README, E-mail). */
export const MAIL_OFF = 'SMTP_URL이 설정되지 않아 이메일을 보내지 않습니다.';
