/**
 * What every PDF of the service needs: pdfkit, loaded on first use (it is large and most
 * processes render no PDF), and the DejaVu Sans TTFs (assets/fonts) it embeds, read once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type PDFKitDocument from 'pdfkit';

let PDFDocument: typeof PDFKitDocument | null = null;

export function pdfkit(): typeof PDFKitDocument {
  PDFDocument ??= createRequire(import.meta.url)('pdfkit') as typeof PDFKitDocument;
  return PDFDocument;
}

function findFonts(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'assets', 'fonts');
    if (existsSync(join(candidate, 'DejaVuSans.ttf'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('assets/fonts/DejaVuSans.ttf not found');
}

let fonts: { regular: Buffer; bold: Buffer } | null = null;

export function loadFonts(): { regular: Buffer; bold: Buffer } {
  if (!fonts) {
    const dir = findFonts();
    fonts = {
      regular: readFileSync(join(dir, 'DejaVuSans.ttf')),
      bold: readFileSync(join(dir, 'DejaVuSans-Bold.ttf')),
    };
  }
  return fonts;
}

/** The diagonal, translucent watermark of draft documents, on the current page. */
export function draftWatermark(pdf: PDFKit.PDFDocument, text: string, fontSize: number, y: number): void {
  pdf.save();
  pdf.rotate(-35, { origin: [297, 421] });
  pdf.font('bold').fontSize(fontSize).fillColor('#d33').fillOpacity(0.15);
  pdf.text(text, 0, y, { width: 595, align: 'center', lineBreak: false });
  pdf.restore();
  pdf.fillOpacity(1).fillColor('#000');
}

/** Label–value rows (9 pt: labels at `x`, values at `valueX`); returns the y below the last row. */
export function labelledRows(
  pdf: PDFKit.PDFDocument,
  rows: [string, string][],
  at: { x: number; y: number; labelWidth: number; valueX: number; valueWidth: number },
): number {
  let y = at.y;
  pdf.fontSize(9);
  for (const [k, v] of rows) {
    pdf.font('regular').text(k, at.x, y, { width: at.labelWidth });
    pdf.text(v, at.valueX, y, { width: at.valueWidth });
    y += 13;
  }
  return y;
}

export interface TableColumn {
  label: string;
  x: number;
  width: number;
  align?: 'right';
}

/** A table's header row at `y` (bold 8.5 pt) ruled from `left` to `right`; returns the y of the first row. */
export function tableHeader(pdf: PDFKit.PDFDocument, columns: TableColumn[], y: number, left: number, right: number) {
  pdf.font('bold').fontSize(8.5);
  for (const c of columns) pdf.text(c.label, c.x, y, c.align ? { width: c.width, align: c.align } : { width: c.width });
  const below = y + 14;
  pdf
    .moveTo(left, below - 3)
    .lineTo(right, below - 3)
    .lineWidth(0.5)
    .stroke();
  return below;
}

/**
 * Draws on every buffered page (watermarks, footers, page numbers): `draw(i, count)` runs with the
 * page current and its bottom margin lifted, so writing below it does not start a new page.
 */
export function onEveryPage(pdf: PDFKit.PDFDocument, draw: (i: number, count: number) => void): void {
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    const bottom = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    draw(i, range.count);
    pdf.page.margins.bottom = bottom;
  }
}

export interface A4Options {
  lang: string;
  /** Left margin (the other margins are 56 pt). */
  left: number;
  title: string;
  author: string;
  subject: string;
  /** Stored time that stamps the PDF: the same document renders byte-identically. */
  stamp: Date;
}

/**
 * An A4 document with the embedded fonts registered as `regular` and `bold`, pages buffered (for
 * footers on every page), and `done`: the whole file once `pdf.end()` was called.
 */
export function openA4Pdf(o: A4Options): { pdf: PDFKit.PDFDocument; done: Promise<Buffer> } {
  const f = loadFonts();
  const pdf = new (pdfkit())({
    size: 'A4',
    margins: { top: 56, bottom: 56, left: o.left, right: 56 },
    font: f.regular as unknown as string,
    pdfVersion: '1.7',
    lang: o.lang,
    displayTitle: true,
    bufferPages: true,
    info: {
      Title: o.title,
      Author: o.author,
      Subject: o.subject,
      Creator: 'commerce-service',
      Producer: 'commerce-service (pdfkit)',
      CreationDate: o.stamp,
      ModDate: o.stamp,
    },
  });
  pdf.registerFont('regular', f.regular);
  pdf.registerFont('bold', f.bold);
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  return { pdf, done };
}
