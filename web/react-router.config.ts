import type { Config } from '@react-router/dev/config';
import { ADMIN_PATHS, NOT_FOUND_PATH } from './app/page-paths';
import { writeSeoFiles } from './tooling/seo-files';
import { deferHydrationInBuild } from './tooling/defer-hydration';
import { precompressAssets } from './tooling/precompress';

export default {
  // Every public page is prerendered to static HTML; the admin area is a client-side app.
  ssr: false,
  async prerender({ getStaticPaths }) {
    const admin = new Set<string>(ADMIN_PATHS);
    return [...getStaticPaths().filter((path) => !admin.has(path)), NOT_FOUND_PATH];
  },
  async buildEnd({ reactRouterConfig }) {
    const clientDir = `${reactRouterConfig.buildDirectory}/client`;
    await writeSeoFiles(clientDir);
    await deferHydrationInBuild(clientDir);
    await precompressAssets(clientDir);
  },
} satisfies Config;
