import { HERO_EXPERIMENTS, variantPagePath, type HeroExperiment } from '@guida/shared/experiments';
import type { SiteFile, SitePage, StaticSite } from './static-site';

export interface ExperimentPages {
  experiment: HeroExperiment;
  /** Each variant's prerendered page and route data (the data only when the page has a loader). */
  variants: Map<string, { page: SitePage; data: SiteFile | undefined }>;
}

/** React Router's route data file of a prerendered path. */
const dataPathOf = (path: string) => (path === '/' ? '/_root.data' : `${path}.data`);

/**
 * The prerendered variants of each experiment (decision 041), taken out of the site's
 * pages and files: they are served only at the experiment's page, so a variant's own
 * path answers 404 and search engines know a single page. An experiment with a variant
 * missing from the build (a build of other sources) is not run: its page, if any, is
 * served as it is, and the experiment is named in `incomplete`.
 */
export function experimentPages(site: StaticSite) {
  const byPagePath = new Map<string, ExperimentPages>();
  const byDataPath = new Map<string, ExperimentPages>();
  const incomplete: string[] = [];
  for (const experiment of HERO_EXPERIMENTS) {
    const paths = experiment.variants.map(({ id }) => [id, variantPagePath(experiment, id)] as const);
    if (!paths.every(([, path]) => site.pages.has(path))) {
      incomplete.push(experiment.id);
      continue;
    }
    const variants = new Map<string, { page: SitePage; data: SiteFile | undefined }>();
    for (const [id, path] of paths) {
      variants.set(id, { page: site.pages.get(path)!, data: site.files.get(dataPathOf(path)) });
      site.pages.delete(path);
      site.files.delete(dataPathOf(path));
    }
    const pages = { experiment, variants };
    byPagePath.set(experiment.path, pages);
    byDataPath.set(dataPathOf(experiment.path), pages);
  }
  return { byPagePath, byDataPath, incomplete };
}
