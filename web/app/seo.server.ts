import type { PageMeta } from './content/types';
import { seoFor } from './lib/seo';
import { canonicalPathOf } from './page-paths';
import { siteConfig } from './site-config.server';

/** SEO data of a prerendered page, with its canonical URL on the public base URL. */
export function pageSeo(path: string, meta: PageMeta, options: { noindex?: boolean } = {}) {
  return seoFor({
    title: meta.title,
    description: meta.description,
    path: canonicalPathOf(path),
    baseUrl: siteConfig.PUBLIC_BASE_URL,
    ...options,
  });
}

/** The page's path from the loader's normalized `url` (the raw request of a data load ends in `.data`). */
export const pathOf = (url: URL) => url.pathname.replace(/(.)\/$/, '$1');
