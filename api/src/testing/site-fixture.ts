import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

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
