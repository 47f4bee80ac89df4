import type { MetaDescriptor } from 'react-router';

/** What a loader returns for the <head> of its page. */
export interface PageSeo {
  title: string;
  description: string;
  canonicalUrl: string;
  /** Pages not meant for search results (thank-you pages, admin). */
  noindex?: boolean;
}

export function seoFor(options: { title: string; description: string; path: string; baseUrl: string; noindex?: boolean }): PageSeo {
  return {
    title: options.title,
    description: options.description,
    canonicalUrl: `${options.baseUrl}${options.path}`,
    ...(options.noindex ? { noindex: true } : {}),
  };
}

export function metaTags(seo: PageSeo | undefined): MetaDescriptor[] {
  if (!seo) return [{ title: 'Guida Finanza' }];
  return [
    { title: seo.title },
    { name: 'description', content: seo.description },
    { tagName: 'link', rel: 'canonical', href: seo.canonicalUrl },
    { property: 'og:type', content: 'website' },
    { property: 'og:locale', content: 'it_IT' },
    { property: 'og:site_name', content: 'Guida Finanza' },
    { property: 'og:title', content: seo.title },
    { property: 'og:description', content: seo.description },
    { property: 'og:url', content: seo.canonicalUrl },
    ...(seo.noindex ? [{ name: 'robots', content: 'noindex, follow' }] : []),
  ];
}
