/**
 * A real PgBouncer (Debian's) in front of the test PostgreSQL, in transaction mode with the
 * settings of the managed poolers (Supabase, Neon, DigitalOcean, Heroku): unknown start-up
 * parameters refused, a small server pool shared by every client.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PGBOUNCER } from '../../scripts/lib/debian-packages.mjs';
import { freePort } from './free-port';
import { waitFor } from './wait-for';

export interface PgBouncer {
  /** `databaseUrl` with PgBouncer's host and port. */
  url: string;
  output(): string;
  stop(): Promise<void>;
}

export async function startPgBouncer(databaseUrl: string, { serverPoolSize = 5 } = {}): Promise<PgBouncer> {
  const upstream = new URL(databaseUrl);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
  const user = decodeURIComponent(upstream.username) || 'postgres';
  writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${upstream.hostname} port=${upstream.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${serverPoolSize}`,
      'max_client_conn = 500',
      // What the managed poolers let through; statement_timeout is not among them.
      'ignore_startup_parameters = extra_float_digits',
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: -u drops to the database's system user.
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const child = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited:\n${output}`);
      const client = new pg.Client({ connectionString: url.toString() });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    { what: 'pgbouncer to accept connections', timeoutMs: 15_000 },
  );
  return {
    url: url.toString(),
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
