import { ConfigError, parseEnv } from '@guida/shared/config';
import { apiEnvSchema } from '../config';

/** What the API parsing `env` says is wrong, as the process would print it at start; [] when nothing is. */
export function apiConfigProblems(env: Record<string, string>) {
  try {
    parseEnv(apiEnvSchema, env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

/** Everything a production API requires (NODE_ENV=production and the settings it then demands), for tests of production behaviour. */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  PUBLIC_BASE_URL: 'https://guida.example',
  TRUST_PROXY: '1',
  SESSION_SECRET: 'a'.repeat(32),
  SUPPRESSION_HASH_SECRET: 's'.repeat(32),
  ADMIN_SECOND_FACTOR_KEY: 't'.repeat(32),
  PRIVACY_CONTROLLER_NAME: 'Esempio S.r.l.',
  PRIVACY_CONTROLLER_ADDRESS: 'Via Roma 1, 20100 Milano',
  PRIVACY_CONTROLLER_VAT: 'IT01234567890',
};
