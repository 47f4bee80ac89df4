/**
 * Renders the free guides (one PDF per ebook type) from the Markdown sources in
 * guides/content. Run directly: `node --import tsx guides/build-guides.ts [outDir]`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import { EBOOK_TYPES, type EbookType } from '@guida/shared/lead-rules';

type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] };

interface Run {
  text: string;
  bold: boolean;
}

const CONTENT_DIR = new URL('./content/', import.meta.url);

const AUTHOR = 'Guida Finanza';
const SUBTITLE = 'Guida gratuita — materiale educativo';
const FOOTER_NOTE = `${AUTHOR} · materiale educativo`;
// A fixed date keeps rebuilds byte-identical (pdfkit derives the file ID from it too).
const PUBLISHED = new Date('2025-01-01T00:00:00Z');

const META: Record<EbookType, { subject: string; keywords: string }> = {
  general: {
    subject: 'Introduzione ai mercati finanziari, al trading e ai rischi dei prodotti a leva',
    keywords: 'mercati finanziari, trading, CFD, leva finanziaria, CONSOB, FINMA, truffe, conto demo',
  },
  'financial-education': {
    subject: 'Finanza personale: bilancio familiare, fondo di emergenza, debiti, inflazione e previdenza',
    keywords: 'educazione finanziaria, bilancio familiare, fondo di emergenza, debiti, risparmio, inflazione, previdenza',
  },
  'investment-education': {
    subject: "Le basi dell'investimento: rischio, diversificazione, costi, ETF, oro e interesse composto",
    keywords: 'investimenti, rischio, diversificazione, orizzonte temporale, TER, ETF, ETC, oro, interesse composto',
  },
};

const FONT = { regular: 'Helvetica', bold: 'Helvetica-Bold' };
const COLOR = { ink: '#1f2933', muted: '#5f6b7a', accent: '#0f5c4d', rule: '#c9d3dc', paper: '#ffffff' };
const SIZE = { body: 10.5, lead: 12, h2: 16, h3: 12.5, footer: 8.5 };
const LINE_GAP = 3.5;
const MARGINS = { top: 72, bottom: 80, left: 68, right: 68 };
const BULLET_INDENT = 16;

/** Parses the small Markdown subset the guides use: #/##/### headings, paragraphs and "- " lists. */
function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: string[] | undefined;

  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    if (list) blocks.push({ kind: 'list', items: list });
    paragraph = [];
    list = undefined;
  };

  for (const line of source.split(/\r?\n/).map((l) => l.trim())) {
    const heading = /^(#{1,3}) (.+)$/.exec(line);
    if (line === '') {
      flush();
    } else if (heading?.[1] && heading[2]) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1].length as 1 | 2 | 3, text: heading[2] });
    } else if (line.startsWith('- ')) {
      if (paragraph.length > 0) flush();
      (list ??= []).push(line.slice(2));
    } else if (list) {
      // A non-bullet line right after an item continues that item.
      list[list.length - 1] += ` ${line}`;
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

/** Splits `**bold**` markup into runs and swaps straight quotes for typographic ones. */
function toRuns(text: string): Run[] {
  const typographic = text.replace(/"([^"]*)"/g, '“$1”').replace(/'/g, '’');
  return typographic
    .split('**')
    .map((part, index) => ({ text: part, bold: index % 2 === 1 }))
    .filter((run) => run.text !== '');
}

const plain = (text: string) =>
  toRuns(text)
    .map((run) => run.text)
    .join('');

class GuideRenderer {
  private readonly doc: PDFKit.PDFDocument;

  constructor(doc: PDFKit.PDFDocument) {
    this.doc = doc;
  }

  private get contentWidth() {
    return this.doc.page.width - MARGINS.left - MARGINS.right;
  }

  private get bottom() {
    return this.doc.page.height - MARGINS.bottom;
  }

  /** Starts a new page unless `height` points still fit: keeps a heading with the lines after it. */
  private ensureSpace(height: number) {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  private richText(text: string, x: number, width: number, size: number, color: string) {
    const runs = toRuns(text);
    this.doc.fontSize(size).fillColor(color);
    runs.forEach((run, index) => {
      const options = { continued: index < runs.length - 1, lineGap: LINE_GAP };
      this.doc.font(run.bold ? FONT.bold : FONT.regular);
      if (index === 0) this.doc.text(run.text, x, this.doc.y, { ...options, width });
      else this.doc.text(run.text, options);
    });
  }

  cover(title: string, sections: string[]) {
    const { doc } = this;
    const bandHeight = doc.page.height * 0.42;
    doc.rect(0, 0, doc.page.width, bandHeight).fill(COLOR.accent);

    doc.font(FONT.bold).fontSize(10).fillColor(COLOR.paper);
    doc.text(AUTHOR.toUpperCase(), MARGINS.left, MARGINS.top, { characterSpacing: 2 });

    doc.font(FONT.bold).fontSize(28).fillColor(COLOR.paper);
    const titleHeight = doc.heightOfString(plain(title), { width: this.contentWidth, lineGap: 4 });
    doc.text(plain(title), MARGINS.left, bandHeight - 70 - titleHeight, {
      width: this.contentWidth,
      lineGap: 4,
    });
    doc.moveDown(0.6).font(FONT.regular).fontSize(14).text(SUBTITLE, { width: this.contentWidth });

    doc.y = bandHeight + 48;
    doc.font(FONT.bold).fontSize(SIZE.h3).fillColor(COLOR.accent).text('In questa guida', MARGINS.left);
    doc.moveDown(0.5);
    for (const section of sections) this.listItem(section, SIZE.body + 0.5);

    doc.font(FONT.regular).fontSize(SIZE.footer).fillColor(COLOR.muted);
    const note =
      'Materiale a scopo esclusivamente educativo: non costituisce una consulenza personalizzata in materia di investimenti. Ogni investimento comporta il rischio di perdere capitale.';
    const noteHeight = doc.heightOfString(note, { width: this.contentWidth });
    doc.text(note, MARGINS.left, this.bottom - noteHeight, { width: this.contentWidth });
  }

  heading(level: 2 | 3, text: string) {
    const { doc } = this;
    const size = level === 2 ? SIZE.h2 : SIZE.h3;
    doc.font(FONT.bold).fontSize(size);
    const height = doc.heightOfString(plain(text), { width: this.contentWidth });
    const bodyLines = 3 * (SIZE.body * 1.2 + LINE_GAP);
    // Skip the space above a heading that opens a page.
    const spaceAbove = doc.y > MARGINS.top ? (level === 2 ? 18 : 10) : 0;
    this.ensureSpace(spaceAbove + height + bodyLines);
    if (doc.y > MARGINS.top) doc.y += spaceAbove;
    if (level === 2) doc.outline.addItem(plain(text));
    doc.fillColor(level === 2 ? COLOR.accent : COLOR.ink);
    doc.text(plain(text), MARGINS.left, doc.y, { width: this.contentWidth });
    doc.y += level === 2 ? 6 : 3;
  }

  paragraph(text: string, size = SIZE.body, color = COLOR.ink) {
    this.richText(text, MARGINS.left, this.contentWidth, size, color);
    this.doc.y += 8;
  }

  listItem(text: string, size = SIZE.body) {
    const { doc } = this;
    doc.fontSize(size);
    this.ensureSpace(doc.currentLineHeight(true) + LINE_GAP);
    const y = doc.y;
    doc.circle(MARGINS.left + 5, y + size * 0.45, 1.9).fill(COLOR.accent);
    this.richText(text, MARGINS.left + BULLET_INDENT, this.contentWidth - BULLET_INDENT, size, COLOR.ink);
    doc.y += 3;
  }

  /** Written last, once the page count is known; the cover carries no number. */
  footers() {
    const { doc } = this;
    const { start, count } = doc.bufferedPageRange();
    for (let index = start + 1; index < start + count; index++) {
      doc.switchToPage(index);
      // The footer sits inside the bottom margin, where pdfkit would otherwise break the page.
      doc.page.margins.bottom = 0;
      const y = doc.page.height - MARGINS.bottom + 28;
      doc.moveTo(MARGINS.left, y - 8).lineTo(doc.page.width - MARGINS.right, y - 8);
      doc.lineWidth(0.5).strokeColor(COLOR.rule).stroke();
      doc.font(FONT.regular).fontSize(SIZE.footer).fillColor(COLOR.muted);
      doc.text(FOOTER_NOTE, MARGINS.left, y, { lineBreak: false });
      doc.text(`Pagina ${index - start + 1} di ${count}`, MARGINS.left, y, {
        width: this.contentWidth,
        align: 'right',
        lineBreak: false,
      });
      doc.page.margins.bottom = MARGINS.bottom;
    }
  }
}

async function renderGuide(type: EbookType, source: string, file: string): Promise<Buffer> {
  const blocks = parseMarkdown(source);
  const titleBlock = blocks[0];
  if (titleBlock?.kind !== 'heading' || titleBlock.level !== 1) {
    throw new Error(`Guide content ${file} must start with a "# " title`);
  }
  const title = plain(titleBlock.text);

  const doc = new PDFDocument({
    size: 'A4',
    margins: MARGINS,
    bufferPages: true,
    lang: 'it-IT',
    displayTitle: true,
    info: {
      Title: title,
      Author: AUTHOR,
      Subject: META[type].subject,
      Keywords: META[type].keywords,
      Creator: AUTHOR,
      CreationDate: PUBLISHED,
      ModDate: PUBLISHED,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const renderer = new GuideRenderer(doc);
  const body = blocks.slice(1);
  renderer.cover(
    title,
    body.flatMap((block) => (block.kind === 'heading' && block.level === 2 ? [block.text] : [])),
  );
  doc.addPage();

  body.forEach((block, index) => {
    if (block.kind === 'heading') {
      renderer.heading(block.level === 3 ? 3 : 2, block.text);
    } else if (block.kind === 'list') {
      block.items.forEach((item) => renderer.listItem(item));
      doc.y += 5;
    } else if (index === 0) {
      // The intro before the first section is set larger, as a lead paragraph.
      renderer.paragraph(block.text, SIZE.lead, COLOR.muted);
    } else {
      renderer.paragraph(block.text);
    }
  });

  renderer.footers();
  doc.end();
  return done;
}

/** The number of pages of a PDF this module rendered (its page objects, not the page tree). */
export const pdfPageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;

/** Renders every ebook type to `<outDir>/<type>.pdf` and returns the written paths. */
export async function buildGuides(outDir: string): Promise<string[]> {
  await fs.mkdir(outDir, { recursive: true });
  const written: string[] = [];
  for (const type of EBOOK_TYPES) {
    const source = fileURLToPath(new URL(`${type}.md`, CONTENT_DIR));
    const markdown = await fs.readFile(source, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new Error(`Missing guide content for "${type}": ${source}`);
      throw error;
    });
    const target = path.join(outDir, `${type}.pdf`);
    await fs.writeFile(target, await renderGuide(type, markdown, source));
    written.push(target);
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Resolved against the repository root so the output lands in the same place from any cwd.
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  const outDir = path.resolve(repoRoot, process.argv[2] ?? 'guides/dist');
  for (const file of await buildGuides(outDir)) {
    const { size } = await fs.stat(file);
    console.log(`guide written: ${path.relative(process.cwd(), file)} (${size} bytes)`);
  }
}
