/**
 * Multipart form parsing for forms with a file: bounded memory (the body is read up to
 * MAX_FORM_BYTES, then parsed by the platform's multipart parser, Request#formData), and an
 * oversized file is reported instead of failing the whole form, so the other fields the person
 * typed survive to be shown again.
 *
 * NOTE: not Remix's unstable_parseMultipartFormData: its parser splits Content-Disposition on `;`
 * and `=` and refuses a file named e.g. `가게;로고.png` or `logo=v2.png` (any name a phone may give)
 * as malformed, which failed the whole application.
 */

import { readBodyUpTo } from '~/utils/request-body.server';

/** The whole body is refused beyond this (10 MB): an image of 5 MB plus the text fields fits easily. */
const MAX_FORM_BYTES = 10 * 1024 * 1024;
/** A text field is cut at this many bytes (16 KB); the form's schema then refuses it as too long. */
const MAX_TEXT_FIELD_BYTES = 16 * 1024;

/** The body could not be read as a form: too large (`tooLarge`), not multipart, or malformed. */
export class FormReadError extends Error {
  constructor(
    message: string,
    readonly tooLarge: boolean,
  ) {
    super(message);
    this.name = 'FormReadError';
  }
}

/**
 * Reads a multipart/form-data request. Files up to `maxFileBytes` each are kept; a larger file is
 * dropped and its field name listed in `oversized`. Text fields lose any NUL character (no
 * keyboard types one; PostgreSQL text cannot store one) and are cut at 16 KB.
 * @throws FormReadError when the body exceeds MAX_FORM_BYTES (by Content-Length or as read), is not
 *   multipart/form-data, or is malformed.
 */
export async function readUploadForm(
  request: Request,
  { maxFileBytes }: { maxFileBytes: number },
): Promise<{ formData: FormData; oversized: string[] }> {
  const contentType = request.headers.get('Content-Type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new FormReadError(`Not a multipart form: ${JSON.stringify(contentType)}`, false);
  }
  let body: Uint8Array<ArrayBuffer> | null;
  try {
    body = await readBodyUpTo(request, MAX_FORM_BYTES);
  } catch (error) {
    throw new FormReadError(`The body could not be read: ${(error as Error).message}`, false);
  }
  if (!body) throw new FormReadError('The form is larger than 10 MB', true);
  let parsed: FormData;
  try {
    parsed = await new Response(body, { headers: { 'Content-Type': contentType } }).formData();
  } catch (error) {
    throw new FormReadError(`Not a readable multipart form: ${(error as Error).message}`, false);
  }
  const formData = new FormData();
  const oversized: string[] = [];
  for (const [name, value] of parsed) {
    if (typeof value === 'string') {
      // NUL: no keyboard types it, and PostgreSQL text cannot store it (the api would fail with 500).
      const text = value.replaceAll('\u0000', '');
      const bytes = new TextEncoder().encode(text);
      formData.append(
        name,
        bytes.byteLength > MAX_TEXT_FIELD_BYTES
          ? new TextDecoder().decode(bytes.subarray(0, MAX_TEXT_FIELD_BYTES))
          : text,
      );
    } else if (value.size > maxFileBytes) {
      oversized.push(name);
    } else {
      formData.append(name, value);
    }
  }
  return { formData, oversized };
}
