import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EBOOK_TYPES } from '@guida/shared/lead-rules';
import { buildGuides, pdfPageCount } from './build-guides';

const contentFile = (type: string) => fileURLToPath(new URL(`./content/${type}.md`, import.meta.url));

describe('buildGuides', () => {
  let outDir: string;
  let written: string[];

  beforeAll(async () => {
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guides-'));
    written = await buildGuides(outDir);
  });

  afterAll(() => {
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('writes one PDF per ebook type', () => {
    expect(written).toEqual(EBOOK_TYPES.map((type) => path.join(outDir, `${type}.pdf`)));
  });

  it.each(EBOOK_TYPES)('renders %s as a PDF with more than two pages', (type) => {
    const pdf = fs.readFileSync(path.join(outDir, `${type}.pdf`));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfPageCount(pdf)).toBeGreaterThan(2);
  });

  it('gives byte-identical files when built twice', async () => {
    const again = fs.mkdtempSync(path.join(os.tmpdir(), 'guides-'));
    try {
      await buildGuides(again);
      for (const type of EBOOK_TYPES) {
        const first = fs.readFileSync(path.join(outDir, `${type}.pdf`));
        const second = fs.readFileSync(path.join(again, `${type}.pdf`));
        expect(second.equals(first), `${type}.pdf differs between builds`).toBe(true);
      }
    } finally {
      fs.rmSync(again, { recursive: true, force: true });
    }
  });
});

describe('guide content', () => {
  it.each(EBOOK_TYPES)('%s has a title and an "Avvertenze importanti" section', (type) => {
    const markdown = fs.readFileSync(contentFile(type), 'utf8');
    expect(markdown).toMatch(/^# \S/);
    expect(markdown).toMatch(/^## Avvertenze importanti$/m);
  });
});
