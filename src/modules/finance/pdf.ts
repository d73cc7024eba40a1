/**
 * Invoice and credit-note PDFs with pdfkit, rendered from the stored document only, with the
 * DejaVu Sans TTF embedded (assets/fonts). Deterministic: the PDF info dates come from the
 * document (finalization time) and pdfkit derives the file id from them, so the same final
 * document renders byte-identically every time. Drafts are marked as drafts on every page.
 */
import {
  draftWatermark,
  labelledRows,
  onEveryPage,
  openA4Pdf,
  type TableColumn,
  tableHeader,
} from '../../platform/pdf.js';

import { categoryOf, decimal, percent, withTaxCategory } from './documents.js';
import { type DocContent, servicePeriodOf } from './einvoice.js';

export interface RenderInput {
  doc: DocContent;
  draft: boolean;
  /** Stored time that stamps the PDF (finalization for final documents). */
  stamp: Date;
}

const money = (cents: number, currency: string) => {
  const s = decimal(cents).replace('.', ',');
  const [int, frac] = s.split(',');
  const neg = (int ?? '').startsWith('-');
  const digits = (int ?? '').replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${neg ? '-' : ''}${digits},${frac} ${currency === 'EUR' ? '€' : currency}`;
};
const germanDate = (d: string | null | undefined) => (d ? `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)}` : '—');

const LEFT = 56;
const RIGHT = 539;
const WIDTH = RIGHT - LEFT;

export function renderPdf({ doc, draft, stamp }: RenderInput): Promise<Buffer> {
  const credit = doc.type === 'credit_note';
  const title = credit ? 'Gutschrift' : 'Rechnung';
  const { pdf, done } = openA4Pdf({
    lang: 'de-DE',
    left: LEFT,
    title: draft ? `${title} (Entwurf)` : `${title} ${doc.number}`,
    author: doc.seller?.legal_name ?? '',
    // ASCII only, so the reference is readable in the file itself
    subject: credit
      ? `Gutschrift ${draft ? '(Entwurf)' : doc.number} zu Rechnung ${doc.invoice_number}`
      : `Rechnung ${draft ? '(Entwurf)' : doc.number} zu Bestellung ${doc.order_number}`,
    stamp,
  });

  const s = doc.seller;
  const b = doc.buyer;
  const cur = doc.currency;

  // sender line and recipient block
  pdf.font('regular').fontSize(7).fillColor('#555');
  if (s) pdf.text([s.legal_name, s.line1, `${s.postal_code} ${s.city}`].filter(Boolean).join(' · '), LEFT, 120);
  pdf.fillColor('#000').fontSize(10);
  const recipient = [b.company, b.name, b.line1, b.line2, `${b.postal_code} ${b.city}`.trim(), b.country].filter(
    (x): x is string => Boolean(x),
  );
  pdf.text(recipient.join('\n'), LEFT, 134, { width: 250 });

  // seller block (top right)
  if (s) {
    pdf
      .font('bold')
      .fontSize(11)
      .text(s.legal_name, 330, 56, { width: RIGHT - 330, align: 'right' });
    pdf.font('regular').fontSize(8);
    const sellerLines = [
      s.line1,
      s.line2,
      `${s.postal_code} ${s.city}`,
      s.country,
      s.phone ? `Tel. ${s.phone}` : null,
      s.email,
    ].filter((x): x is string => Boolean(x));
    pdf.text(sellerLines.join('\n'), 330, pdf.y + 2, { width: RIGHT - 330, align: 'right' });
  }

  // meta
  const meta: [string, string][] = [
    [`${title}snummer`, draft ? '(wird bei Finalisierung vergeben)' : (doc.number ?? '')],
    [`${title}sdatum`, draft ? '—' : germanDate(doc.issue_date)],
  ];
  // a subscription payment's billed period is the time of supply (§ 14 (4) Nr. 6 UStG), on the credit note too
  const period = servicePeriodOf(doc);
  if (credit) {
    meta.push(['Zur Rechnung', `${doc.invoice_number ?? ''} vom ${germanDate(doc.invoice_issue_date)}`]);
    if (period) meta.push(['Leistungszeitraum', `${germanDate(period.start)} – ${germanDate(period.end)}`]);
  } else if (period) {
    meta.push(['Leistungszeitraum', `${germanDate(period.start)} – ${germanDate(period.end)}`]);
  } else {
    meta.push(['Leistungsdatum', germanDate(doc.service_date)]);
  }
  meta.push(['Bestellung', doc.order_number]);
  if (b.vat_id) meta.push(['USt-IdNr. Kunde', b.vat_id]);
  if (doc.buyer_reference) meta.push(['Ihre Referenz', doc.buyer_reference]);
  let y = 250;
  pdf
    .font('bold')
    .fontSize(16)
    .text(draft ? `${title}sentwurf` : title, LEFT, y);
  y = pdf.y + 8;
  y = labelledRows(pdf, meta, { x: LEFT, y, labelWidth: 120, valueX: LEFT + 125, valueWidth: 300 }) + 10;
  if (doc.reason) {
    pdf.font('regular').text(`Grund: ${doc.reason}`, LEFT, y, { width: WIDTH });
    y = pdf.y + 6;
  }

  // lines
  const cols = { pos: LEFT, name: LEFT + 28, qty: LEFT + 262, unit: LEFT + 300, rate: LEFT + 375, total: LEFT + 413 };
  const columns: TableColumn[] = [
    { label: 'Pos.', x: cols.pos, width: 26 },
    { label: 'Bezeichnung', x: cols.name, width: 230 },
    { label: 'Menge', x: cols.qty, width: 34, align: 'right' },
    { label: 'Einzelpreis', x: cols.unit, width: 70, align: 'right' },
    { label: 'USt.', x: cols.rate, width: 36, align: 'right' },
    { label: 'Brutto', x: cols.total, width: RIGHT - cols.total, align: 'right' },
  ];
  const header = () => {
    y = tableHeader(pdf, columns, y, LEFT, RIGHT);
  };
  header();
  pdf.font('regular').fontSize(8.5);
  for (const l of doc.lines) {
    const nameHeight = pdf.heightOfString(l.sku ? `${l.name}\nArt.-Nr. ${l.sku}` : l.name, { width: 230 });
    if (y + nameHeight > 700) {
      pdf.addPage();
      y = 56;
      header();
      pdf.font('regular').fontSize(8.5);
    }
    pdf.text(String(l.position), cols.pos, y, { width: 26 });
    pdf.text(l.sku ? `${l.name}\nArt.-Nr. ${l.sku}` : l.name, cols.name, y, { width: 230 });
    pdf.text(String(l.quantity), cols.qty, y, { width: 34, align: 'right' });
    pdf.text(money(l.unit_price_cents, cur), cols.unit, y, { width: 70, align: 'right' });
    pdf.text(`${percent(l.tax_rate)} %`, cols.rate, y, { width: 36, align: 'right' });
    pdf.text(money(l.line_total_cents, cur), cols.total, y, { width: RIGHT - cols.total, align: 'right' });
    y += Math.max(nameHeight, 11) + 4;
  }
  pdf.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.5).stroke();
  y += 6;

  // totals
  if (y > 640) {
    pdf.addPage();
    y = 56;
  }
  const total = (label: string, value: string, bold = false) => {
    pdf.font(bold ? 'bold' : 'regular').fontSize(9);
    pdf.text(label, LEFT + 230, y, { width: 180, align: 'right' });
    pdf.text(value, cols.total, y, { width: RIGHT - cols.total, align: 'right' });
    y += 13;
  };
  total('Summe netto', money(doc.net_cents, cur));
  for (const g of doc.tax_breakdown) {
    total(`USt. ${percent(g.tax_rate)} % auf ${money(g.net_cents, cur)}`, money(g.tax_cents, cur));
  }
  total(credit ? 'Gutschriftsbetrag brutto' : 'Gesamtbetrag brutto', money(doc.total_cents, cur), true);
  if (!credit) {
    const paid = doc.paid_cents ?? 0;
    if (paid > 0) total('Bereits bezahlt', money(-paid, cur));
    if (paid > 0) total('Offener Betrag', money(doc.total_cents - paid, cur), true);
  }
  y += 8;
  pdf.font('regular').fontSize(8.5);
  const closing: string[] = [];
  if (!credit) {
    const paid = doc.paid_cents ?? 0;
    if (paid >= doc.total_cents) closing.push('Der Betrag wurde bereits bezahlt. Vielen Dank für Ihren Einkauf.');
    else if (doc.due_date) closing.push(`Bitte überweisen Sie den Betrag bis zum ${germanDate(doc.due_date)}.`);
    else closing.push('Bitte überweisen Sie den Betrag nach Erhalt der Rechnung.');
  } else {
    closing.push('Der Gutschriftsbetrag wird Ihnen erstattet.');
  }
  // the texts the tax table requires (docs/finance.md, § 14a UStG): exemption reason per 0 % category and,
  // for reverse charge and intra-community supplies, the buyer's VAT ID beside the seller's (footer)
  const reasons = [...new Set(withTaxCategory(doc.tax_breakdown).map((g) => g.tax_exemption_reason))];
  for (const reason of reasons) if (reason) closing.push(reason);
  const categories = new Set(doc.tax_breakdown.map((g) => categoryOf(g)));
  if ((categories.has('K') || categories.has('AE')) && doc.buyer.vat_id) {
    closing.push(`USt-IdNr. des Leistungsempfängers: ${doc.buyer.vat_id}`);
  }
  if (doc.note) closing.push(doc.note);
  pdf.text(closing.join('\n'), LEFT, y, { width: WIDTH });

  // footer on every page: company, tax and bank data, and the shop's footer text
  const footerLines: string[] = [];
  if (s) {
    footerLines.push(
      [
        s.legal_name,
        s.register_info,
        s.vat_id ? `USt-IdNr. ${s.vat_id}` : null,
        s.tax_number ? `St.-Nr. ${s.tax_number}` : null,
      ]
        .filter(Boolean)
        .join(' · '),
    );
    const bank = [s.bank_name, s.iban ? `IBAN ${s.iban}` : null, s.bic ? `BIC ${s.bic}` : null]
      .filter(Boolean)
      .join(' · ');
    if (bank) footerLines.push(bank);
  }
  if (doc.footer) footerLines.push(doc.footer);
  onEveryPage(pdf, (i, count) => {
    if (draft) {
      draftWatermark(pdf, 'ENTWURF', 72, 385);
      pdf.font('bold').fontSize(8).fillColor('#d33');
      pdf.text('ENTWURF – kein gültiges Steuerdokument', LEFT, 30, { width: WIDTH, align: 'center', lineBreak: false });
      pdf.fillColor('#000');
    }
    pdf.font('regular').fontSize(7).fillColor('#555');
    const text = footerLines.join('\n');
    const h = pdf.heightOfString(text, { width: WIDTH });
    pdf.text(text, LEFT, 841.89 - 40 - h, { width: WIDTH, align: 'center', lineBreak: true, height: h + 2 });
    pdf.text(`Seite ${i + 1} von ${count}`, LEFT, 841.89 - 34, {
      width: WIDTH,
      align: 'right',
      lineBreak: false,
    });
    pdf.fillColor('#000');
  });
  pdf.end();
  return done;
}
