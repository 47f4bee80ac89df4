/** The site's paths live in shared: the API answers live figures for these pages only. */
export * from '@guida/shared/page-paths';
