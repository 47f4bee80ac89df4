import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A shared schema as react-hook-form's resolver, zod told first to run without
 * `new Function`, which the CSP forbids (lib/zod-in-browser.ts). Imported on demand: a static
 * import would put that module, and zod with it, into the public pages' chunk, which takes
 * every module of web/app outside the admin that a route imports (web/vite.config.ts).
 */
export function schemaResolver<Schema extends z.ZodType<unknown, FieldValues>>(
  schema: Schema,
): Resolver<z.input<Schema>, unknown, z.output<Schema>> {
  const resolver = zodResolver(schema) as Resolver<z.input<Schema>, unknown, z.output<Schema>>;
  return async (values, context, options) => {
    await import('../../../lib/zod-in-browser');
    return resolver(values, context, options);
  };
}
