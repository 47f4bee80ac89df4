import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { HERO_EXPERIMENTS, variantPagePath } from '@guida/shared/experiments';

const page = (title: string) =>
  `<!doctype html><html lang="it"><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;

/**
 * A tiny web build (home, one landing page, the 404 page, the admin's app shell, an
 * asset; home and asset with their precompressed variants) for tests of the site routes:
 * they need pages to serve, not the real build.
 */
export function createSiteFixture() {
  const dir = mkdtempSync(path.join(tmpdir(), 'guida-site-'));
  const write = (relative: string, content: string | Buffer) => {
    const file = path.join(dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  };
  write('index.html', page('Guida gratuita'));
  write('index.html.br', brotliCompressSync(page('Guida gratuita')));
  write('index.html.gz', gzipSync(page('Guida gratuita')));
  write('trading-svizzera/index.html', page('Trading Svizzera'));
  write('404/index.html', page('Page Not Found'));
  write('__spa-fallback.html', page('App shell'));
  write('assets/app-abc123.js', 'console.log("ok");');
  write('assets/app-abc123.js.br', brotliCompressSync('console.log("ok");'));
  write('assets/app-abc123.js.gz', gzipSync('console.log("ok");'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The route data file of a prerendered page (client-side navigation). */
export const dataPathOf = (pagePath: string) => `${pagePath}.data`;

/** The fixture build plus each variant's page and route data of the first experiment, each naming its variant. */
export function createExperimentSite() {
  const site = createSiteFixture();
  const experiment = HERO_EXPERIMENTS[0]!;
  const write = (relative: string, content: string) => {
    const file = path.join(site.dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  };
  for (const { id } of experiment.variants) {
    const pagePath = variantPagePath(experiment, id);
    write(`${pagePath}/index.html`, `<!doctype html><html lang="it"><body><section data-hero-variant="${id}">Variante ${id}</section></body></html>`);
    write(dataPathOf(pagePath), `[{"variant":"${id}"}]`);
  }
  return site;
}

/** The variant a page of the experiment site shows. */
export const servedVariantOf = (html: string) => /data-hero-variant="(\w+)"/.exec(html)?.[1];
