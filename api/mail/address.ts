/**
 * E-mail addresses as the mail settings give them (MAIL_FROM: "외대 버스 <bus@example.com>" or an
 * address), read with nodemailer's own RFC 5322 address parser.
 */
import addressparser from 'nodemailer/lib/addressparser';
import { z } from 'zod';

const AddressSchema = z.string().email();

/**
 * The one mailbox in `value` ("Name <address>" or "address"), or null when it holds none, several, a
 * group, or an address zod's email check refuses.
 */
export function mailboxAddress(value: string): { name: string; address: string } | null {
  const parsed = addressparser(value);
  if (parsed.length !== 1) return null;
  const [mailbox] = parsed;
  if (mailbox.group || !AddressSchema.safeParse(mailbox.address).success) return null;
  return { name: mailbox.name, address: mailbox.address };
}

/** Mail providers that ignore dots in the local part (gmail.com and its old name googlemail.com). */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox `address` reaches, as one key for counting the e-mails it gets (api/rate-limit.ts
 * mailsToRecipient): lower-cased and trimmed, without a "+tag" sub-address (RFC 5233, which the big
 * providers deliver to the same mailbox), and for Gmail without the dots it ignores, so that
 * `Victim+1@Gmail.com` and `v.ictim@googlemail.com` count as one.
 */
export function recipientKey(address: string): string {
  const normal = address.trim().toLowerCase();
  const at = normal.lastIndexOf('@');
  if (at < 0) return normal;
  let local = normal.slice(0, at);
  let domain = normal.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}
