/**
 * Multipart form parsing for forms with a file (Remix's parseMultipartFormData with our upload
 * handler): bounded memory, and an oversized file is reported instead of failing the whole form,
 * so the other fields the person typed survive to be shown again.
 */
import { unstable_parseMultipartFormData, type UploadHandlerPart } from '@remix-run/node';

/** The whole body is refused beyond this (10 MB): an image of 5 MB plus the text fields fits easily. */
export const MAX_FORM_BYTES = 10 * 1024 * 1024;
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
 * Reads a multipart/form-data request. Files are kept in memory up to `maxFileBytes` each; a larger
 * file is read to its end, dropped, and its field name listed in `oversized`.
 * @throws FormReadError when the body exceeds MAX_FORM_BYTES (by Content-Length or as read), is not
 *   multipart/form-data, or is malformed.
 */
export async function readUploadForm(
  request: Request,
  { maxFileBytes }: { maxFileBytes: number },
): Promise<{ formData: FormData; oversized: string[] }> {
  if (Number(request.headers.get('Content-Length') ?? 0) > MAX_FORM_BYTES) {
    throw new FormReadError('The form is larger than 10 MB', true);
  }
  const oversized: string[] = [];
  let total = 0;
  const collect = async (part: UploadHandlerPart, cap: number): Promise<{ chunks: Uint8Array[]; over: boolean }> => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of part.data) {
      total += chunk.byteLength;
      if (total > MAX_FORM_BYTES) throw new FormReadError('The form is larger than 10 MB', true);
      size += chunk.byteLength;
      if (size <= cap) chunks.push(chunk);
    }
    return { chunks, over: size > cap };
  };
  try {
    const formData = await unstable_parseMultipartFormData(request, async (part) => {
      if (part.filename === undefined) {
        const { chunks } = await collect(part, MAX_TEXT_FIELD_BYTES);
        return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, MAX_TEXT_FIELD_BYTES));
      }
      const { chunks, over } = await collect(part, maxFileBytes);
      if (over) {
        oversized.push(part.name);
        return undefined;
      }
      return new File([Buffer.concat(chunks)], part.filename, { type: part.contentType });
    });
    return { formData, oversized };
  } catch (error) {
    if (error instanceof FormReadError) throw error;
    throw new FormReadError(`Not a readable multipart form: ${(error as Error).message}`, false);
  }
}
