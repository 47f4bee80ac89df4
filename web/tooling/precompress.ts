import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|xml|data)$/;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

/** Writes `file`.br and `file`.gz, unless the file is too small to gain from it. */
export async function precompressFile(file: string) {
  if ((await stat(file)).size < 512) return;
  const content = await readFile(file);
  await writeFile(
    `${file}.br`,
    await brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }),
  );
  await writeFile(`${file}.gz`, await gzipAsync(content, { level: 9 }));
}

/**
 * Writes .br and .gz next to every text asset once, at build time, so the API serves
 * compressed files without compressing on each request.
 */
export async function precompressAssets(clientDir: string) {
  for await (const file of files(clientDir)) await precompressFile(file);
}
