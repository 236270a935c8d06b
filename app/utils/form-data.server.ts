/**
 * Reading the forms the actions take, one way for all of them: the body (already capped by the edge,
 * app/server/body-limit.server.ts) parsed by the platform's parser (Request#formData), a body that is
 * not a readable form turned into a 400 with the form's own message (never a 500), and conform's
 * replies kept within each field's maximum length.
 *
 * NOTE: the multipart parser is the platform's, not Remix's unstable_parseMultipartFormData: that one
 * splits Content-Disposition on `;` and `=` and refuses a file named e.g. `가게;로고.png` or
 * `logo=v2.png` (any name a phone may give) as malformed, which failed the whole application.
 */
import { MIMEType } from 'node:util';
import type { SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import type { ZodTypeAny } from 'zod';

/** A field's value as conform echoes it: text, or a list (or record) of them. */
type SubmissionPayload = NonNullable<SubmissionResult['initialValue']>[string];

/** A text field of an upload form is cut at this many bytes (16 KB); the form's schema then refuses it as too long. */
const MAX_TEXT_FIELD_BYTES = 16 * 1024;
/** What a reply echoes of a field whose schema sets no maximum length, in characters. */
const ECHO_MAX_CHARS = 2048;

/**
 * A form's fields: those of `schema` (conform's names, read off getZodConstraint: `title`,
 * `routes.1150.routeId`, `items[].id`), and the names in `also` (hidden fields the action reads
 * itself: `intent`, `id`, the honeypot's); a name in `repeated` may come more than once. A plain
 * object, so that a route module declares its form's at its top: a call there would run in the
 * browser's bundle too, where this .server module is not.
 */
export type FormSpec = {
  schema: ZodTypeAny | null;
  also?: readonly string[];
  repeated?: readonly string[];
};

/** The fields a form may carry, by name: whether each may repeat (a list) or comes once. */
type FormFields = ReadonlyMap<string, { repeats: boolean }>;

/** The most values one repeating field may carry (a list of ids), so a form's entries stay bounded. */
const MAX_REPEATS = 100;

/** The fields of each form spec, read once. */
const fieldsBySpec = new WeakMap<FormSpec, FormFields>();

/** The fields of `spec`, by name (read once per spec). */
function fieldsOf(spec: FormSpec): FormFields {
  const known = fieldsBySpec.get(spec);
  if (known) return known;
  const { schema, also = [], repeated = [] } = spec;
  const fields = new Map<string, { repeats: boolean }>();
  for (const [name, constraint] of Object.entries(schema ? getZodConstraint(schema) : {})) {
    fields.set(name, { repeats: constraint.multiple === true });
  }
  for (const name of also) fields.set(name, { repeats: false });
  for (const name of repeated) fields.set(name, { repeats: true });
  fieldsBySpec.set(spec, fields);
  return fields;
}

/**
 * Why `formData` is not a form with `fields`, or null when it is: a name the form does not have, a
 * one-value name sent twice, or a list of more than MAX_REPEATS (by its count or an index). Checked entry by entry, before any
 * parsing: conform builds a repeated name's list one copy at a time, which made a body of a few
 * hundred KB repeating one field cost seconds of the event loop.
 */
function strayField(formData: FormData, fields: FormFields): string | null {
  const seen = new Map<string, number>();
  for (const name of formData.keys()) {
    // conform names a list's items `name[0]`, `name[1].id`: the constraint's `name[]`, `name[].id`.
    const field = fields.get(name.replace(/\[\d+\]/g, '[]'));
    if (!field) return `unknown field ${JSON.stringify(name.slice(0, 60))}`;
    // conform builds a list as long as its highest index: `name[99999999]` alone would be 10^8 items.
    if ([...name.matchAll(/\[(\d+)\]/g)].some(([, index]) => Number(index) >= MAX_REPEATS)) {
      return `field ${JSON.stringify(name.slice(0, 60))} past the list's ${MAX_REPEATS} items`;
    }
    const times = (seen.get(name) ?? 0) + 1;
    if (times > (field.repeats ? MAX_REPEATS : 1)) return `field ${JSON.stringify(name)} sent ${times} times`;
    seen.set(name, times);
  }
  return null;
}

/**
 * How many entries the form body `bytes` of `contentType` holds at most, counted without parsing
 * it: its `&` separators plus one (urlencoded), or its boundary's delimiters (multipart); null for
 * a multipart body whose boundary is missing or never occurs, which no parser reads. The boundary
 * is read as the platform's parser reads it (node:util MIMEType, WHATWG's MIME type parsing), so
 * both count the same delimiters. A pass of Buffer#indexOf over the body: the platform's multipart
 * parser took half a second of the event loop for 5 MB of one-byte fields.
 */
function entriesIn(bytes: Uint8Array, contentType: string): number | null {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let type: MIMEType;
  try {
    type = new MIMEType(contentType);
  } catch {
    return null;
  }
  const boundary = type.essence === 'multipart/form-data' ? type.params.get('boundary') : '';
  if (boundary === null) return null;
  const delimiter = boundary ? `--${boundary}` : '&';
  let count = boundary ? 0 : 1;
  for (let at = body.indexOf(delimiter); at !== -1; at = body.indexOf(delimiter, at + delimiter.length)) count += 1;
  return count === 0 ? null : count;
}

/**
 * The form in `request`'s body (application/x-www-form-urlencoded or multipart/form-data, or only
 * multipart with `multipartOnly`: the image forms), or null when the body is no readable `form`
 * (its FormSpec): another content type, more entries than its fields can hold (counted before parsing), a
 * malformed multipart body, a missing boundary, a field the form does not have or one sent more
 * often than it may be (strayField). The refusal is logged in one line naming the path and the reason.
 */
export async function readForm(
  request: Request,
  form: FormSpec,
  { multipartOnly = false }: { multipartOnly?: boolean } = {},
): Promise<FormData | null> {
  const contentType = request.headers.get('Content-Type') ?? '';
  const path = new URL(request.url).pathname;
  const refused = (reason: string) => {
    console.warn(`[form] ${path}: ${reason}; answered 400.`);
    return null;
  };
  const type = multipartOnly
    ? /^multipart\/form-data\s*(;|$)/i
    : /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
  if (!type.test(contentType)) return refused(`not a form (Content-Type ${JSON.stringify(contentType.slice(0, 100))})`);
  const body = new Uint8Array(await request.arrayBuffer());
  const fields = fieldsOf(form);
  const most = [...fields.values()].reduce((sum, field) => sum + (field.repeats ? MAX_REPEATS : 1), 0);
  const entries = entriesIn(body, contentType);
  if (entries === null) return refused('unreadable body (no boundary, or none in the body)');
  // A multipart body's closing delimiter is one more than its parts.
  if (entries > most + 1) return refused(`more entries than the form's ${most} fields`);
  let formData: FormData;
  try {
    formData = await new Response(body, { headers: { 'Content-Type': contentType } }).formData();
  } catch (error) {
    return refused(`unreadable body (${(error as Error).message})`);
  }
  const stray = strayField(formData, fields);
  return stray ? refused(stray) : formData;
}

/**
 * readForm for a form with a file: files up to `maxFileBytes` each are kept; a larger file is
 * dropped and its field name listed in `oversized`, so the other fields come back to be shown
 * again. Text fields are cut at 16 KB and otherwise kept as sent: a NUL or another control
 * character is the form's schema's to refuse with its message (contract/strings.ts), as in every
 * other form, and parseForm's reply never echoes one. Null as readForm.
 */
export async function readUploadForm(
  request: Request,
  form: FormSpec,
  { maxFileBytes }: { maxFileBytes: number },
): Promise<{ formData: FormData; oversized: string[] } | null> {
  const parsed = await readForm(request, form, { multipartOnly: true });
  if (!parsed) return null;
  const formData = new FormData();
  const oversized: string[] = [];
  for (const [name, value] of parsed) {
    if (typeof value === 'string') {
      const bytes = new TextEncoder().encode(value);
      formData.append(
        name,
        bytes.byteLength > MAX_TEXT_FIELD_BYTES
          ? new TextDecoder().decode(bytes.subarray(0, MAX_TEXT_FIELD_BYTES))
          : value,
      );
    } else if (value.size > maxFileBytes) {
      oversized.push(name);
    } else {
      formData.append(name, value);
    }
  }
  return { formData, oversized };
}

/**
 * conform's parseWithZod (one schema per form, on both sides), whose `reply` echoes no
 * text longer than its field's maximum length in `schema` (ECHO_MAX_CHARS for a field without
 * one), line breaks counted once, and no control character but TAB, LF and CR (UNECHOED): a
 * refused form comes back with what a person could have typed, never with a flood or a NUL.
 */
export function parseForm<Schema extends ZodTypeAny>(formData: FormData, schema: Schema) {
  const submission = parseWithZod(formData, { schema });
  const constraint = getZodConstraint(schema);
  const reply = submission.reply.bind(submission);
  return Object.assign(submission, {
    reply: (...options: Parameters<typeof reply>) => {
      const result = reply(...options);
      return { ...result, initialValue: clipped(result.initialValue, constraint) };
    },
  });
}

/** The result of a form refused before it could be parsed: `messages` as form errors, nothing echoed. */
export function refusedForm(...messages: string[]): SubmissionResult<string[]> {
  return { status: 'error', error: { '': messages } };
}

/**
 * What a reply never echoes: the control characters the forms refuse in free text (NUL, the other
 * C0 controls but TAB, LF and CR, DEL, C1), which no keyboard types and a page should not carry.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNECHOED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

function clipped(
  value: SubmissionResult['initialValue'],
  constraint: Record<string, { maxLength?: number }>,
): SubmissionResult['initialValue'] {
  if (!value) return value;
  return Object.fromEntries<SubmissionPayload>(
    Object.entries(value).map(([name, field]) => {
      const max = constraint[name]?.maxLength ?? ECHO_MAX_CHARS;
      // Line breaks as one LF each, as a textarea's maxlength counts them (a browser posts CRLF);
      // a nested field (routes.1150.routeId) is cleaned as its top-level field is.
      const clip = (text: SubmissionPayload): SubmissionPayload => {
        if (typeof text === 'string') return text.replace(UNECHOED, '').replace(/\r\n?/g, '\n').slice(0, max);
        if (Array.isArray(text)) return text.map((item) => clip(item) as string);
        if (text && typeof text === 'object') {
          return Object.fromEntries(Object.entries(text).map(([key, item]) => [key, clip(item as SubmissionPayload)]));
        }
        return text;
      };
      return [name, clip(field)];
    }),
  );
}

/**
 * A record's id as a form field or a URL parameter carries it: decimal digits, no sign, no leading
 * zero, at most 10 digits (a PostgreSQL serial); anything else ("1e3", "0x7", "-1", a file) is null.
 */
export function serialIdOf(value: FormDataEntryValue | string | null | undefined): number | null {
  return typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;
}
