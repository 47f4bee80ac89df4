import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port';
import { waitFor } from './wait-for';
import { testRedisUrl } from './services';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningProcess {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr. */
  output(): string;
  /** Sends `signal` (SIGKILL after 20 s) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/** Runs a bundled entry point (api/dist/server.js, worker/dist/index.js) as its own process. */
export function runBundled(entry: string, env: Record<string, string>): RunningProcess {
  return runProcess(process.execPath, ['--enable-source-maps', entry], env);
}

/**
 * Runs `command` in `cwd` (the repository by default) with only the environment the test
 * gives (no developer .env, no inherited secrets) and PATH.
 */
export function runProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd = ROOT,
): RunningProcess {
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * What every test's API and worker need: where they listen and keep their data, with test
 * secrets. Tests add the services and settings they exercise.
 */
export function processEnv({ port, databaseUrl, redisKeyPrefix }: { port: number; databaseUrl: string; redisKeyPrefix: string }) {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    REDIS_URL: testRedisUrl(),
    REDIS_KEY_PREFIX: redisKeyPrefix,
    SESSION_SECRET: 'system-test-session-secret-0123456789',
    LINK_TOKEN_SECRET: 'system-test-link-token-secret-0123456789',
  };
}

/**
 * Tests post many forms from one loopback address to numbers of a few blocks, without the
 * page view that makes a lead trusted: the budgets per address, network and block (and the
 * share of the block kept for trusted leads) would hold most of their SMS (decision 052).
 * The tests of those budgets set their own.
 */
const ONE_TEST_CLIENT = {
  SMS_BUDGET_ADDRESS_PER_HOUR: '100000',
  SMS_BUDGET_ADDRESS_PER_DAY: '100000',
  SMS_BUDGET_NETWORK_PER_HOUR: '100000',
  SMS_BUDGET_NETWORK_PER_DAY: '100000',
  SMS_BUDGET_BLOCK_PER_HOUR: '100000',
  SMS_BUDGET_BLOCK_PER_DAY: '100000',
};

/**
 * The bundled API. Tests post many forms from one loopback address, so the challenge is
 * off unless `env` turns it on (decision 028), and so are the SMS budgets per client.
 */
export async function startApi(env: Record<string, string>) {
  const api = runBundled('api/dist/server.js', { CHALLENGE_MODE: 'off', ...ONE_TEST_CLIENT, ...env });
  await waitFor(
    async () => {
      if (api.child.exitCode !== null) throw new Error(`api exited early:\n${api.output()}`);
      try {
        return (await fetch(`http://127.0.0.1:${env.PORT}/readyz`)).ok;
      } catch {
        return false;
      }
    },
    // A supervisor and its processes load the bundle on a machine the suite keeps busy.
    { what: 'the api to be ready', timeoutMs: 45_000 },
  );
  return api;
}

/**
 * The bundled worker, its health and metrics server on a free port (each worker process
 * on a host needs its own) unless `env` names one; the SMS budgets per client lifted as
 * for the API.
 */
export async function startWorker(env: Record<string, string>): Promise<RunningProcess & { metricsUrl: string }> {
  const port = env.WORKER_METRICS_PORT ?? String(await freePort());
  const worker = runBundled('worker/dist/index.js', { ...ONE_TEST_CLIENT, ...env, WORKER_METRICS_PORT: port });
  await waitFor(
    () => {
      if (worker.child.exitCode !== null) throw new Error(`worker exited early:\n${worker.output()}`);
      return worker.output().includes('worker started');
    },
    { what: 'the worker to start', timeoutMs: 45_000 },
  );
  return { ...worker, metricsUrl: `http://127.0.0.1:${port}` };
}
