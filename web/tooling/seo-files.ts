import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { commonEnv, parseEnv } from '@guida/shared/config';
import { INDEXABLE_PATHS } from '../app/page-paths';

/** robots.txt and sitemap.xml for the public base URL of this build. */
export async function writeSeoFiles(clientDir: string) {
  const { PUBLIC_BASE_URL } = parseEnv(z.object({ PUBLIC_BASE_URL: commonEnv.PUBLIC_BASE_URL }), process.env);
  const robots = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin',
    'Disallow: /admin-login',
    'Disallow: /admin-dashboard',
    'Disallow: /api/',
    'Disallow: /g/',
    `Sitemap: ${PUBLIC_BASE_URL}/sitemap.xml`,
    '',
  ].join('\n');
  const urls = INDEXABLE_PATHS.map((page) => `  <url><loc>${PUBLIC_BASE_URL}${page}</loc></url>`).join('\n');
  const sitemap = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  await writeFile(path.join(clientDir, 'robots.txt'), robots);
  await writeFile(path.join(clientDir, 'sitemap.xml'), sitemap);
}
