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

export const pathOf = (request: Request) => new URL(request.url).pathname.replace(/(.)\/$/, '$1');
