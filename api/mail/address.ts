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
