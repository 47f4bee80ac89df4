import { zodResolver } from '@hookform/resolvers/zod';
import { gdprRequestAcceptedSchema, gdprRequestFormSchema } from '@guida/shared/schemas/gdpr';
import '../../lib/zod-in-browser';

/**
 * The /gdpr form's shared schema as react-hook-form's resolver, loaded on its own once the
 * visitor reaches the form (and at the latest on submit): zod stays off the page's first load.
 */
export const gdprRequestResolver = zodResolver(gdprRequestFormSchema);
export const parseAccepted = (answer: unknown) => gdprRequestAcceptedSchema.parse(answer);
