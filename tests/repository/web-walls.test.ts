/**
 * The walls of the web package (decision 022, extended by 046), as `npm run lint` enforces
 * them: each import below is linted as if it were written in the file named beside it.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** Whether the project's lint configuration refuses `source` in `file` as a restricted import. */
async function refused(file: string, source: string) {
  const [result] = await eslint.lintText(`import { used } from '${source}';\nexport const value = used;\n`, { filePath: `${ROOT}${file}` });
  return result!.messages.some((message) => message.ruleId === 'no-restricted-imports');
}

describe('the walls of web/app', () => {
  it.each([
    ['web/app/components/ui/example.tsx', '../../features/lead-form'],
    ['web/app/components/example.tsx', '../layouts/public-layout'],
    ['web/app/lib/example.ts', '../routes/gdpr'],
    ['web/app/features/lead-form/example.ts', '../challenge/use-challenge'],
    ['web/app/features/admin/leads/example.ts', '../../consent/cookie-banner'],
    ['web/app/features/admin/leads/example.ts', '../../admin/admin-api'],
    ['web/app/layouts/example.tsx', '../features/consent/cookie-banner'],
    ['web/app/routes/example.tsx', '../features/admin/admin-shell'],
    ['web/app/root.tsx', './features/tracking/tracker'],
  ])('%s may not import %s', async (file, source) => {
    expect(await refused(file, source)).toBe(true);
  });

  it.each([
    ['web/app/features/lead-form/example.ts', '../challenge'],
    ['web/app/features/lead-form/example.ts', '../../components/ui/form'],
    ['web/app/features/admin/leads/example.ts', '../admin-api'],
    ['web/app/features/admin/leads/example.ts', '../../../lib/api-client'],
    ['web/app/layouts/example.tsx', '../features/consent'],
    ['web/app/routes/example.tsx', '../layouts/landing-page'],
    ['web/app/root.tsx', './features/tracking'],
    ['web/app/components/example.tsx', '../lib/overlay-height'],
  ])('%s may import %s', async (file, source) => {
    expect(await refused(file, source)).toBe(false);
  });
});
