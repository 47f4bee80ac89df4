const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  '53300', // too_many_connections
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
]);

/** Whether an error means Postgres is unreachable (answer 503), not that a query is wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof DatabaseBusyError) return true;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (error.name === 'KnexTimeoutError') return true;
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return /Connection terminated|timeout exceeded when trying to connect/i.test(error.message);
}

/** The database did not take a request in time (its connections are all stuck): a 503. */
export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError';
}

/**
 * PostgreSQL refused a value for its characters: NUL in text (22021, 22P05) or a lone
 * surrogate in jsonb (22P02 with a Unicode detail). The text rule refuses these first;
 * a field it missed is still bad input (400), not a server error.
 */
export function isRefusedCharacter(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, detail } = error as { code?: unknown; detail?: unknown };
  if (code === '22021' || code === '22P05') return true;
  return code === '22P02' && typeof detail === 'string' && /unicode|surrogate/i.test(detail);
}
