// @ts-check
/**
 * The processes of `npm run dev`: the API and the worker from source under `tsx watch`
 * (restarted when a file they import changes), and Vite's dev server for the site (hot
 * module replacement), which passes the API's paths on to the API (web/vite.config.ts).
 * The JSON logs of the API and the worker are printed readable with pino-pretty.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { prettyFactory } from 'pino-pretty';
import { ROOT } from './output.mjs';

/**
 * @typedef {{ name: string, child: import('node:child_process').ChildProcess, exited: Promise<void> }} DevProcess
 */

/**
 * @param {string} name
 * @param {string} bin a command of node_modules/.bin
 * @param {string[]} args
 * @param {{ cwd?: string, env: NodeJS.ProcessEnv, pretty: boolean, write: (text: string) => void }} options
 * @returns {DevProcess}
 */
function startProcess(name, bin, args, { cwd = ROOT, env, pretty, write }) {
  const child = spawn(join(ROOT, 'node_modules', '.bin', bin), args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // A line that is not a log entry (a stack trace, tsx's notices) comes out as it is.
  const format = pretty
    ? prettyFactory({ colorize: true, ignore: 'pid,hostname,service', messageFormat: `${name}: {msg}` })
    : (/** @type {string} */ line) => `${line}\n`;
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => write(format(line)));
  }
  const exited = new Promise((resolve) => child.once('exit', () => resolve(undefined)));
  return { name, child, exited };
}

/**
 * Starts the three processes: the site on `sitePort`, the API on `apiPort`, all three with
 * `env` (the caller's environment, .env loaded).
 * @param {{ sitePort: number, apiPort: number, env: NodeJS.ProcessEnv, write?: (text: string) => void }} options
 */
export function startDevProcesses({ sitePort, apiPort, env, write = (text) => process.stdout.write(text) }) {
  // tsx watch restarts a process once the old one has stopped: short grace, one API process.
  const restartable = { ...env, SHUTDOWN_GRACE_MS: '2000' };
  const processes = [
    startProcess('api', 'tsx', ['watch', '--clear-screen=false', 'api/src/server.ts'], {
      env: { ...restartable, PORT: String(apiPort), WEB_CONCURRENCY: '1' },
      pretty: true,
      write,
    }),
    startProcess('worker', 'tsx', ['watch', '--clear-screen=false', 'worker/src/index.ts'], {
      env: restartable,
      pretty: true,
      write,
    }),
    startProcess('web', 'react-router', ['dev', '--port', String(sitePort), '--strictPort'], {
      cwd: join(ROOT, 'web'),
      env: { ...env, DEV_API_PORT: String(apiPort) },
      pretty: false,
      write,
    }),
  ];
  return {
    processes,
    /** SIGTERM to each, then waits until all three have exited. */
    async stop() {
      for (const { child } of processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.all(processes.map(({ exited }) => exited));
    },
  };
}
