/**
 * `node api/dist/create-admin.js --username NAME` (in development `npm run admin:create --
 * --username NAME`, which prepares the database first): creates an admin, or sets a new
 * password for an existing user and makes it admin (every session of theirs ends). The
 * password comes from ADMIN_PASSWORD or stdin (asked twice, without echo, on a terminal); a
 * weak one is refused (password-policy.ts).
 *
 * `--reset-second-factor`: forgets the existing admin's second factor and recovery codes (a
 * lost phone), so their next login enrols again, and ends their sessions; the password
 * stays unless ADMIN_PASSWORD gives a new one too. Audited.
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { commonEnv, loadConfigOrExit } from '@guida/shared/config';
import { createDb } from '@guida/shared/server/db';
import { findUserByUsername, upsertUser } from './admin-users.repo';
import { auditCommandLineAction } from './audit-log';
import { hashPassword } from './password-hash';
import { passwordProblem } from './password-policy';
import { deleteSecondFactor } from './second-factor/second-factor.repo';

function fail(message: string): never {
  console.error(`admin:create: ${message}`);
  process.exit(1);
}

/** One line from a terminal, echoing nothing. */
function askHidden(question: string): Promise<string> {
  const output = process.stdout;
  const reader = createInterface({ input: process.stdin, output, terminal: true });
  const write = output.write.bind(output);
  return new Promise((resolve) => {
    write(question);
    // readline echoes what is typed through output.write: swallow it while asking.
    output.write = ((chunk: string | Uint8Array) => (chunk === question ? write(chunk) : true)) as typeof output.write;
    reader.question('', (answer) => {
      output.write = write;
      write('\n');
      reader.close();
      resolve(answer);
    });
  });
}

async function readPassword(): Promise<string> {
  if (process.env.ADMIN_PASSWORD) return process.env.ADMIN_PASSWORD;
  if (process.stdin.isTTY) {
    const first = await askHidden('Password: ');
    const second = await askHidden('Ripeti la password: ');
    if (first !== second) fail('the two passwords differ');
    return first;
  }
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  return input.replace(/\r?\n$/, '');
}

const { values } = parseArgs({
  options: { username: { type: 'string' }, 'reset-second-factor': { type: 'boolean', default: false } },
  strict: true,
});
const username = values.username?.trim();
if (!username || !/^[\w.@-]{3,100}$/.test(username)) {
  fail('give --username NAME (3-100 letters, digits, . _ @ -)');
}
const resetSecondFactor = values['reset-second-factor'] === true;
const { DATABASE_URL } = loadConfigOrExit(z.object({ DATABASE_URL: commonEnv.DATABASE_URL }));

// A reset alone keeps the password: only ADMIN_PASSWORD sets a new one with it.
const password = resetSecondFactor && !process.env.ADMIN_PASSWORD ? null : await readPassword();
if (password !== null) {
  const problem = passwordProblem(password, username);
  if (problem) fail(`password refused: ${problem}`);
}

const db = createDb(DATABASE_URL, { applicationName: 'guida-admin-create', poolMax: 1 });
try {
  if (password !== null) {
    const { id, created } = await upsertUser(db, { username, passwordHash: await hashPassword(password), isAdmin: true });
    console.log(`${created ? 'created' : 'updated'} admin "${username}" (id ${id})`);
  }
  if (resetSecondFactor) {
    const user = await findUserByUsername(db, username);
    if (!user) fail(`no user "${username}" (create it first, without --reset-second-factor)`);
    const had = await deleteSecondFactor(db, user.id);
    // Sessions check the second factor they were opened with on every request: theirs end now.
    await auditCommandLineAction(db, { action: 'reset_second_factor', target: { type: 'user', id: user.id }, details: { hadSecondFactor: had } });
    console.log(`second factor of "${user.username}" reset${had ? '' : ' (none was enrolled)'}: the next login enrols again`);
  }
} finally {
  await db.destroy();
}
