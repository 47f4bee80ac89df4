import type { z } from 'zod';
import { validationMessages } from '@guida/shared/messages';
import { validationFailed } from '../errors';

/**
 * Our schemas carry their Italian messages; any issue without one (a wrong type deep in a
 * body, a bound we did not word) gets this generic Italian one, never zod's English text.
 */
const italianFallback = () => validationMessages.invalidValue;

/** One message per field (the first), keyed by the field's path. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Parses with the shared schema; a failure becomes a 400 with one message per field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input, { error: italianFallback });
  if (result.success) return result.data;
  throw validationFailed(fieldErrors(result.error));
}

/**
 * A ZodError that escaped parseOrThrow (a schema parsed elsewhere): its messages may be
 * zod's English defaults, so every field gets the generic Italian one.
 */
export function fromStrayZodError(error: z.ZodError) {
  const errors: Record<string, string> = {};
  for (const field of Object.keys(fieldErrors(error))) errors[field] = validationMessages.invalidValue;
  return validationFailed(errors);
}
