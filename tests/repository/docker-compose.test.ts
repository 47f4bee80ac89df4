/**
 * docker-compose.yml without a Docker engine: valid against the Compose Specification's
 * JSON schema (vendored, see fixtures/README.md), interpolation compose accepts, health
 * checks for the API and the worker that pass and fail when they should (run here with
 * this Node, as the image runs them), and stop grace periods longer than the processes'
 * own shutdown grace, so compose never kills a job mid-run.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

const COMPOSE_TEXT = read('docker-compose.yml');

interface Service {
  healthcheck?: { test?: string[] | string; disable?: boolean };
  stop_grace_period?: string;
}
// Compose resolves YAML merge keys (`<<: *app`) before it reads the file.
const compose = parse(COMPOSE_TEXT, { merge: true }) as { services: Record<string, Service> };

/** Compose durations: `30s`, `1m30s`, `500ms`, … */
function durationMs(duration: string): number {
  const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001 };
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us)/g)];
  if (parts.map((part) => part[0]).join('') !== duration) throw new Error(`not a compose duration: ${duration}`);
  return parts.reduce((total, [, value, unit]) => total + Number(value) * units[unit!]!, 0);
}

const shutdownGraceMs = Number(/^SHUTDOWN_GRACE_MS=(\d+)$/m.exec(read('.env.example'))?.[1]);

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification schema', () => {
    const schema = JSON.parse(read('tests/repository/fixtures/compose-spec.json')) as Record<string, unknown>;
    // The schema names its draft by an https address that Ajv does not know as draft-07.
    const validate = new Ajv({ allErrors: true, strict: false, validateSchema: false }).compile(schema);
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('uses only interpolation that compose accepts ($$ for a literal $)', () => {
    const unaccepted = COMPOSE_TEXT.split('\n').flatMap((line, index) =>
      [...line.matchAll(/\$(\$|\{[A-Za-z_][A-Za-z0-9_]*(?::?[-?+][^}]*)?\}|[A-Za-z_])?/g)]
        .filter((match) => match[1] === undefined)
        .map(() => `line ${index + 1}: ${line.trim()}`),
    );
    expect(unaccepted).toEqual([]);
  });

  it('stops the API and the worker after more than their shutdown grace', () => {
    expect(shutdownGraceMs).toBeGreaterThan(0);
    for (const name of ['api', 'worker']) {
      const grace = compose.services[name]?.stop_grace_period;
      expect(grace, name).toBeDefined();
      expect(durationMs(grace!), name).toBeGreaterThan(shutdownGraceMs);
    }
  });
});

describe('the health checks of docker-compose.yml', () => {
  let server: Server | undefined;
  async function stopServer() {
    if (server?.listening) await new Promise((resolve) => server!.close(resolve));
  }
  afterEach(stopServer);

  /** A stand-in for the process: answers `path` with `status`, anything else with 404. */
  async function serve(path: string, status: number) {
    server = createServer((req, res) => {
      res.statusCode = req.url === path ? status : 404;
      res.end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return (server.address() as AddressInfo).port;
  }

  /** Runs the service's health check command as Docker does (exec form), with only `env`. */
  async function runHealthcheck(service: string, env: Record<string, string>) {
    const healthcheck = compose.services[service]?.healthcheck;
    expect(healthcheck?.disable).not.toBe(true);
    const test = healthcheck?.test;
    expect(Array.isArray(test) && test[0] === 'CMD', `${service}: exec-form healthcheck`).toBe(true);
    const [, command, ...args] = test as string[];
    // The image's `node` is the one that runs the checks; here it is this test's Node.
    expect(command).toBe('node');
    const child = spawn(process.execPath, args!, { env, stdio: 'ignore' });
    const [code] = (await once(child, 'exit')) as [number | null];
    return code;
  }

  async function unusedPort() {
    const port = await serve('/', 200);
    await stopServer();
    return port;
  }

  it('API: healthy when /readyz answers 200 on PORT, unhealthy on 503 or no answer', async () => {
    expect(await runHealthcheck('api', { PORT: String(await serve('/readyz', 200)) })).toBe(0);
    await stopServer();
    expect(await runHealthcheck('api', { PORT: String(await serve('/readyz', 503)) })).toBe(1);
    expect(await runHealthcheck('api', { PORT: String(await unusedPort()) })).toBe(1);
  });

  it('worker: healthy when /health answers 200 on WORKER_METRICS_PORT, unhealthy on 503 or no answer', async () => {
    expect(await runHealthcheck('worker', { WORKER_METRICS_PORT: String(await serve('/health', 200)) })).toBe(0);
    await stopServer();
    expect(await runHealthcheck('worker', { WORKER_METRICS_PORT: String(await serve('/health', 503)) })).toBe(1);
    expect(await runHealthcheck('worker', { WORKER_METRICS_PORT: String(await unusedPort()) })).toBe(1);
  });
});
