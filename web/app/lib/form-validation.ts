import type { z } from 'zod';
import type { Validation } from './validated-form';
import './zod-in-browser';

/**
 * A form validator for useValidatedForm from a shared schema: the parsed values, or the
 * first message of each invalid field (as the schema orders them). Only the lazily loaded
 * validation modules import it, so zod stays off the first load.
 */
export function formValidator<Output>(schema: z.ZodType<Output>) {
  return <Values>(values: Values): Validation<Values, Output> => {
    const result = schema.safeParse(values);
    if (result.success) return { valid: true, values: result.data };
    const errors: Partial<Record<keyof Values & string, string>> = {};
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? '') as keyof Values & string;
      errors[field] ??= issue.message;
    }
    return { valid: false, errors };
  };
}
