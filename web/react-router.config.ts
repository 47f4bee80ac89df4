import type { Config } from '@react-router/dev/config';
import { HERO_EXPERIMENTS, variantPagePath } from '@guida/shared/experiments';
import { ADMIN_PATHS, NOT_FOUND_PATH } from './app/page-paths';
import { writeSeoFiles } from './tooling/seo-files';
import { deferHydrationInBuild } from './tooling/defer-hydration';
import { precompressAssets } from './tooling/precompress';

export default {
  // Every public page is prerendered to static HTML; the admin area is a client-side app.
  ssr: false,
  async prerender({ getStaticPaths }) {
    const admin = new Set<string>(ADMIN_PATHS);
    // A page under a hero experiment has an optional segment, so it is not among the static
    // paths: its variants are listed here, the control at the page's own path (decision 041).
    const variants = HERO_EXPERIMENTS.flatMap((experiment) =>
      experiment.variants.map((variant) => variantPagePath(experiment, variant.id)),
    );
    return [...getStaticPaths().filter((path) => !admin.has(path)), ...variants, NOT_FOUND_PATH];
  },
  async buildEnd({ reactRouterConfig }) {
    const clientDir = `${reactRouterConfig.buildDirectory}/client`;
    await writeSeoFiles(clientDir);
    await deferHydrationInBuild(clientDir);
    await precompressAssets(clientDir);
  },
} satisfies Config;
