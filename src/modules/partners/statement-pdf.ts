/**
 * The vendor statement PDF (pdfkit, DejaVu Sans embedded), rendered from the stored statement
 * only. Deterministic: the PDF info dates are the finalization time (drafts: their last
 * recomputation) and pdfkit derives the file id from them, so a final statement renders
 * byte-identically every time. Drafts carry a DRAFT watermark on every page.
 */

import { isoDay } from '../../platform/dates.js';
import {
  draftWatermark,
  labelledRows,
  onEveryPage,
  openA4Pdf,
  type TableColumn,
  tableHeader,
} from '../../platform/pdf.js';
import type { Entry, StatementRow } from './statements.service.js';

export function money(cents: number, currency: string): string {
  const neg = cents < 0;
  const abs = Math.abs(cents);
  const int = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${int}.${String(abs % 100).padStart(2, '0')} ${currency}`;
}

const LEFT = 56;
const RIGHT = 539;
const WIDTH = RIGHT - LEFT;
const BOTTOM = 760;

const KIND_LABEL: Record<string, string> = {
  earning: 'Earning',
  clawback: 'Clawback',
  payout_paid: 'Payout',
};

export function renderStatementPdf(row: StatementRow): Promise<Buffer> {
  const draft = row.status !== 'final';
  const stamp = row.finalizedAt ?? row.updatedAt;
  const cur = row.currency;
  const title = draft ? `Vendor statement ${row.period} (draft)` : `Vendor statement ${row.number}`;
  const { pdf, done } = openA4Pdf({
    lang: 'en',
    left: LEFT,
    title,
    author: '',
    subject: `Statement for ${row.vendorSnapshot.name}, period ${row.period}, ${cur}`,
    stamp,
  });

  // header
  pdf
    .font('bold')
    .fontSize(16)
    .text(draft ? 'Vendor statement (draft)' : 'Vendor statement', LEFT, 56);
  let y = pdf.y + 10;
  const meta: [string, string][] = [
    ['Number', draft ? '(assigned on finalization)' : (row.number ?? '')],
    ['Vendor', row.vendorSnapshot.name],
    ['E-mail', row.vendorSnapshot.email],
    ['Period', row.period],
    ['Currency', cur],
    ['Issued', draft ? '—' : row.finalizedAt ? isoDay(row.finalizedAt) : ''],
  ];
  y = labelledRows(pdf, meta, { x: LEFT, y, labelWidth: 100, valueX: LEFT + 105, valueWidth: 330 }) + 12;

  // entries
  const cols = { date: LEFT, kind: LEFT + 66, desc: LEFT + 126, amount: LEFT + 318, balance: LEFT + 403 };
  const columns: TableColumn[] = [
    { label: 'Date', x: cols.date, width: 62 },
    { label: 'Type', x: cols.kind, width: 58 },
    { label: 'Description', x: cols.desc, width: 188 },
    { label: 'Amount', x: cols.amount, width: 80, align: 'right' },
    { label: 'Balance', x: cols.balance, width: RIGHT - cols.balance, align: 'right' },
  ];
  const header = () => {
    y = tableHeader(pdf, columns, y, LEFT, RIGHT);
  };
  header();
  pdf.font('regular').fontSize(8.5);
  pdf.text('Opening balance', cols.desc, y, { width: 188 });
  pdf.text(money(row.openingBalanceCents, cur), cols.balance, y, { width: RIGHT - cols.balance, align: 'right' });
  y += 15;
  const entries = row.entries as Entry[];
  for (const e of entries) {
    const h = pdf.heightOfString(e.description, { width: 188 });
    if (y + h > BOTTOM - 20) {
      pdf.addPage();
      y = 56;
      header();
      pdf.font('regular').fontSize(8.5);
    }
    pdf.text(e.date ?? e.occurred_at.slice(0, 10), cols.date, y, { width: 62 });
    pdf.text(KIND_LABEL[e.kind] ?? e.kind, cols.kind, y, { width: 58 });
    pdf.text(e.description, cols.desc, y, { width: 188 });
    pdf.text(money(e.amount_cents, cur), cols.amount, y, { width: 80, align: 'right' });
    pdf.text(money(e.balance_cents, cur), cols.balance, y, { width: RIGHT - cols.balance, align: 'right' });
    y += Math.max(h, 11) + 4;
  }
  if (entries.length === 0) {
    pdf.text('No entries in this period.', cols.desc, y, { width: 188 });
    y += 15;
  }
  pdf.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.5).stroke();
  y += 6;
  pdf.font('bold').fontSize(9);
  pdf.text('Closing balance', cols.desc, y, { width: 188 });
  pdf.text(money(row.closingBalanceCents, cur), cols.balance, y, { width: RIGHT - cols.balance, align: 'right' });
  y += 24;

  // totals
  if (y > BOTTOM - 100) {
    pdf.addPage();
    y = 56;
  }
  const t = row.totals;
  const totals: [string, number][] = [
    ['Gross sales', t.gross_sales_cents],
    ['Platform commission', -t.commission_cents],
    ['Earnings', t.earnings_cents],
    ['Clawbacks', -t.clawbacks_cents],
    ['Payouts', -t.payouts_cents],
  ];
  pdf.font('bold').fontSize(9).text('Summary', LEFT, y);
  y += 14;
  pdf.font('regular').fontSize(9);
  for (const [label, cents] of totals) {
    pdf.text(label, LEFT, y, { width: 200 });
    pdf.text(money(cents, cur), LEFT + 200, y, { width: 120, align: 'right' });
    y += 13;
  }
  y += 8;
  pdf
    .fontSize(7.5)
    .fillColor('#555')
    .text(
      'Closing balance = opening balance + earnings − clawbacks − payouts: what the shop owes the vendor at the end ' +
        'of the period (pending, available and reserved for payout).',
      LEFT,
      y,
      { width: WIDTH },
    );
  pdf.fillColor('#000');

  // every page: watermark for drafts, hash and page numbers
  onEveryPage(pdf, (i, count) => {
    if (draft) {
      draftWatermark(pdf, 'DRAFT', 96, 375);
    }
    pdf.font('regular').fontSize(7).fillColor('#555');
    if (row.contentHash) {
      pdf.text(row.contentHash, LEFT, 841.89 - 34, { width: WIDTH - 80, align: 'left', lineBreak: false });
    }
    pdf.text(`Page ${i + 1} of ${count}`, LEFT, 841.89 - 34, { width: WIDTH, align: 'right', lineBreak: false });
    pdf.fillColor('#000');
  });
  pdf.end();
  return done;
}
