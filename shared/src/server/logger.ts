import { pino, type Logger } from 'pino';

/**
 * JSON logs. Personal data never goes into them: code logs lead ids only, and these
 * paths are censored in case an object carrying personal data is logged by mistake.
 */
const REDACTED_PATHS = [
  'nome',
  'cognome',
  'email',
  'telefono',
  'to',
  'body',
  '*.nome',
  '*.cognome',
  '*.email',
  '*.telefono',
  '*.to',
  '*.body',
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-twilio-signature"]',
];

export function createLogger(options: { service: string; level: string }): Logger {
  return pino({
    level: options.level,
    base: { service: options.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  });
}

export type { Logger };
