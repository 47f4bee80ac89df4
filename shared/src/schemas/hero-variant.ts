import { z } from 'zod';

/**
 * Where a page view, a funnel landing or a lead names its hero variant (decision 041): never
 * taken from the request (decision 051). Whatever the browser names is dropped here, so a
 * forged or stale value counts nowhere; the API fills in the variant it assigned the visit,
 * from the visit's signed session (or, for a lead without one, the variant its request is
 * served).
 */
export const serverAssignedVariant = z.unknown().optional().transform((): string | null => null);
