/**
 * Request validation with the contract's zod schemas (validate with zod, read input only
 * through the validated value). A bad input answers 400 `{ message }` with the first issue's message
 * (the docs/product.md §5 text where the schema carries one), through the app's onError.
 */
import { HTTPException } from 'hono/http-exception';
import { validator } from 'hono/validator';
import type { z } from 'zod';

/** Hono validator of the JSON body; a body that is not JSON answers 400 too. */
export function jsonBody<T extends z.ZodTypeAny>(schema: T) {
  return validator('json', (value): z.output<T> => parse(schema, value));
}

/** The value `schema` makes of `value`. @throws HTTPException 400 `{ message }` naming the first issue. */
function parse<T extends z.ZodTypeAny>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const field = issue.path.join('.');
  throw new HTTPException(400, { message: field ? `${field}: ${issue.message}` : issue.message });
}
