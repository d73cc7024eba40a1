/**
 * Every kind of e-invoice this service makes, checked with the official rule sets (CEN EN 16931
 * 1.3.15 and 1.3.16, KoSIT XRechnung 2.5.0, Factur-X/ZUGFeRD 2.5 EN 16931 schematron and XSD, UBL
 * and CII XSD) through ../shared/einvoice/validate.sh, run once over all files (Java starts
 * slowly). Skips with a message when Java or ../shared is missing, except with CI=true.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, STORE_ORIGIN, type TestApp } from '../../../test/helpers/app.js';
import type { ViesStub } from '../../../test/helpers/vies-stub.js';
import { EXEMPTION_TEXT } from '../tax/index.js';
import { AT_COMPANY, BUSINESS, type FinanceShop, payOnPage, taxShop, unpaidOrder } from './finance.fixtures.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const VALIDATE = join(REPO, '..', 'shared', 'einvoice', 'validate.sh');
const JAVA = ['/usr/bin/java', '/usr/share/java/Saxon-HE.jar', '/usr/bin/pdftotext'];
const missing = [VALIDATE, ...JAVA].filter((p) => !existsSync(p));
const CI = process.env.CI === 'true';
if (missing.length > 0 && !CI) {
  console.warn(`e-invoice validation skipped: missing ${missing.join(', ')} (install Java/Saxon, check out ../shared)`);
}

let t: TestApp;
let f: FinanceShop;
let vies: ViesStub;
let dir: string;
let worldShipping: string;

const CH_COMPANY = {
  name: 'Urs Meier',
  company: 'Alpen AG',
  line1: 'Bahnhofstr. 10',
  postal_code: '8001',
  city: 'Zürich',
  country: 'CH',
};
const US_COMPANY = {
  name: 'Jane Doe',
  company: 'Acme Inc.',
  line1: '1 Main Street',
  postal_code: '10001',
  city: 'New York',
  country: 'US',
};
const DE_COMPANY = {
  name: 'Erika Muster',
  ...BUSINESS,
  line1: 'Hauptstr. 1',
  postal_code: '10115',
  city: 'Berlin',
  country: 'DE',
};

beforeAll(async () => {
  ({ t, f, vies, world: worldShipping } = await taxShop({ name: 'DHL Welt', price_cents: 1990 }));
  // EINVOICE_OUT keeps the generated files for inspection
  dir = process.env.EINVOICE_OUT ?? mkdtempSync(join(tmpdir(), 'einvoice-'));
});
afterAll(async () => {
  await t?.close();
  await vies?.close();
  if (dir && !process.env.EINVOICE_OUT) rmSync(dir, { recursive: true, force: true });
});

const post = (url: string, body?: unknown) => call(t.app, 'POST', url, { token: f.owner, body });

/** A paid order for `billing` (shipped to the billing address when it holds physical goods). */
async function order(billing: Record<string, unknown>, items: { product_id: string; quantity: number }[]) {
  const physical = items.some((i) => i.product_id === f.products.cheese);
  const shipping = ['CH', 'US'].includes(String(billing.country)) ? worldShipping : f.shipping;
  const email = `buyer-${Math.random().toString(36).slice(2, 8)}@firma.test`;
  const s = await call(t.app, 'POST', '/api/store/checkout-sessions', {
    token: f.shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: {
      items,
      customer: { email, billing_address: billing },
      ...(physical ? { shipping_address: { ...billing, vat_id: undefined }, shipping_method_id: shipping } : {}),
      return_url: `${STORE_ORIGIN}/danke`,
    },
  });
  expect(s.statusCode, s.body).toBe(201);
  const paid = await payOnPage(t, s.data.id, billing);
  expect(paid.statusCode, paid.body).toBe(303);
  const list = await call(t.app, 'GET', `/api/admin/orders?q=${encodeURIComponent(email)}`, { token: f.owner });
  return { orderId: list.data.orders[0].id as string, session: s.data };
}

async function invoice(
  billing: Record<string, unknown>,
  items: { product_id: string; quantity: number }[],
  note: string,
) {
  const { orderId, session } = await order(billing, items);
  const draft = await post(`/api/admin/orders/${orderId}/invoice`, { is_business: true, note });
  expect(draft.statusCode, draft.body).toBe(201);
  const fin = await post(`/api/admin/invoices/${draft.data.id}/finalize`);
  expect(fin.statusCode, fin.body).toBe(200);
  return { ...fin.data, session };
}

/** The finalized invoice of the first payment of a subscription bought on the hosted abo page by `billing`. */
async function aboInvoice(billing: Record<string, string>, note: string) {
  await call(t.app, 'PUT', '/api/admin/digital/status', { token: f.owner, body: { aktiv: true } });
  const plan = await post('/api/admin/digital/plaene', {
    product_id: f.products.course,
    name: 'Team-Abo',
    price_cents: 4900,
    interval_unit: 'month',
  });
  expect(plan.statusCode, plan.body).toBe(201);
  const s = await call(t.app, 'POST', '/api/store/abo-sessions', {
    token: f.shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: { plan_id: plan.data.id, return_url: `${STORE_ORIGIN}/abo`, customer_email: 'team@firma.test' },
  });
  expect(s.statusCode, s.body).toBe(201);
  const paid = await call(t.app, 'POST', `/pay/${s.data.id}`, {
    body: new URLSearchParams({ ...billing, card_number: '4242424242424242' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(paid.statusCode, paid.body).toBe(303);
  const list = await call(t.app, 'GET', `/api/admin/orders?q=${encodeURIComponent('team@firma.test')}`, {
    token: f.owner,
  });
  const orderId = list.data.orders[0].id as string;
  const draft = await post(`/api/admin/orders/${orderId}/invoice`, { is_business: true, note });
  expect(draft.statusCode, draft.body).toBe(201);
  const fin = await post(`/api/admin/invoices/${draft.data.id}/finalize`);
  expect(fin.statusCode, fin.body).toBe(200);
  return fin.data;
}

async function creditNote(invoiceId: string, body: Record<string, unknown>) {
  const draft = await post(`/api/admin/invoices/${invoiceId}/credit-note`, body);
  expect(draft.statusCode, draft.body).toBe(201);
  const fin = await post(`/api/admin/credit-notes/${draft.data.id}/finalize`);
  expect(fin.statusCode, fin.body).toBe(200);
  return fin.data;
}

/** Saves UBL, CII and the ZUGFeRD PDF of a document as `<kind>.ubl.xml` etc. */
async function save(kind: string, path: string) {
  const get = (url: string) => call(t.app, 'GET', url, { token: f.owner });
  const ubl = await get(`${path}/xrechnung`);
  const cii = await get(`${path}/xrechnung?syntax=cii`);
  const pdf = await get(`${path}/pdf?format=zugferd`);
  for (const r of [ubl, cii, pdf]) expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
  writeFileSync(join(dir, `${kind}.ubl.xml`), ubl.body);
  writeFileSync(join(dir, `${kind}.cii.xml`), cii.body);
  writeFileSync(join(dir, `${kind}.zugferd.pdf`), pdf.rawPayload);
}

/** The text of a PDF (poppler's pdftotext, installed with the validator's tools), whitespace collapsed. */
function pdfText(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('pdftotext', ['-enc', 'UTF-8', file, '-'], (err, stdout) =>
      err ? reject(err) : resolve(stdout.replace(/\s+/g, ' ')),
    );
  });
}

function runValidator(): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('bash', [VALIDATE, dir], { maxBuffer: 16 * 1024 * 1024, timeout: 540_000 }, (err, stdout, stderr) => {
      // the table and the summary line are on stdout; stderr holds progress and tool messages
      if (stderr.trim()) console.warn(stderr.trim());
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout });
    });
  });
}

/** Per document kind: files and fatal findings, from the validator's table. */
function perKind(out: string): Record<string, { files: number; fatal: number }> {
  const by: Record<string, { files: number; fatal: number }> = {};
  for (const line of out.split('\n')) {
    // "<kind>.<syntax>.xml  EN1.3.15 EN1.3.16 XR2.5.0 FX-SCH XSD warn" (cells are counts or "-")
    const m = /^([\w-]+)\.(?:ubl|cii|zugferd)\.(?:xml|pdf\.facturx\.xml)\s+((?:[\d-]+\s+){5}\d+)\s*$/.exec(line);
    if (!m) continue;
    const kind = m[1] as string;
    const cells = (m[2] as string).trim().split(/\s+/).slice(0, 5);
    const fatal = cells.filter((c) => c !== '-').reduce((sum, c) => sum + Number(c), 0);
    const k = by[kind] ?? { files: 0, fatal: 0 };
    k.files += 1;
    k.fatal += fatal;
    by[kind] = k;
  }
  return by;
}

describe.skipIf(missing.length > 0 && !CI)('e-invoices pass the official validators', () => {
  it('B2B DE, two rates, shipping, AE, K, G, O, a business subscription (AE, service period) and credit notes (full, lines, amount, of the subscription invoice, for a refund before the invoice, of a cancelled unpaid order): 0 fatal findings', async () => {
    expect(missing, 'the validator and Java are required with CI=true').toEqual([]);
    const { course, ebook, cheese } = f.products;
    const b2b = await invoice(DE_COMPANY, [{ product_id: course, quantity: 1 }], 'Bestellung per Telefon.');
    const twoRates = await invoice(
      DE_COMPANY,
      [
        { product_id: course, quantity: 1 },
        { product_id: ebook, quantity: 3 },
      ],
      'Zwei Steuersätze.',
    );
    const shipped = await invoice(DE_COMPANY, [{ product_id: cheese, quantity: 3 }], 'Lieferung mit DHL.');
    const ae = await invoice(AT_COMPANY, [{ product_id: course, quantity: 2 }], 'Kurs für das Team.');
    const k = await invoice(AT_COMPANY, [{ product_id: cheese, quantity: 4 }], 'Käselieferung nach Wien.');
    const g = await invoice(CH_COMPANY, [{ product_id: cheese, quantity: 2 }], 'Ausfuhr in die Schweiz.');
    const o = await invoice(US_COMPANY, [{ product_id: course, quantity: 1 }], 'Online-Kurs für die USA.');
    const aboAe = await aboInvoice(AT_COMPANY, 'Abo für das Team, erster Monat.');
    // the table rows priced as docs/finance.md says
    expect(ae.lines[0]).toMatchObject({ tax_rate: 0, tax_category: 'AE' });
    expect(k.lines.map((l: { tax_category: string }) => l.tax_category)).toEqual(['K', 'K']);
    expect(g.lines.map((l: { tax_category: string }) => l.tax_category)).toEqual(['G', 'G']);
    expect(o.lines[0]).toMatchObject({ tax_rate: 0, tax_category: 'O' });
    expect(b2b.lines[0]).toMatchObject({ tax_rate: 0.19, tax_category: 'S', tax_exemption_reason: null });
    expect(aboAe.lines[0]).toMatchObject({ tax_rate: 0, tax_category: 'AE', tax_exemption_reason: EXEMPTION_TEXT.AE });
    expect(aboAe.buyer).toMatchObject({ vat_id: 'ATU12345678', company: 'Wiener Handel GmbH' });
    // the subscription payment's billed period (BG-14): the order's period as days in Europe/Berlin, the end inclusive
    const aboOrder = (await call(t.app, 'GET', `/api/admin/orders/${aboAe.order_id}`, { token: f.owner })).data.order;
    const berlin = (iso: string, days = 0) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(
        new Date(Date.parse(iso) + days * 86_400_000),
      );
    expect(aboAe).toMatchObject({
      service_period_start: berlin(aboOrder.service_period_start),
      service_period_end: berlin(aboOrder.service_period_end, -1),
    });
    expect(b2b).toMatchObject({ service_period_start: null, service_period_end: null });

    const full = await creditNote(twoRates.id, { reason: 'Rücksendung der gesamten Bestellung.' });
    const byLines = await creditNote(shipped.id, { lines: [{ position: 1, quantity: 1 }], reason: 'Ein Käse fehlte.' });
    const byAmount = await creditNote(k.id, { amount_cents: 500, reason: 'Preisnachlass wegen Verspätung.' });
    const aboCredit = await creditNote(aboAe.id, { amount_cents: 1000, reason: 'Kulanz für den ersten Monat.' });
    expect(aboCredit).toMatchObject({ service_period_start: aboAe.service_period_start });
    // an invoice issued after a refund: its finalization writes the refund's credit note
    const refunded = await order(DE_COMPANY, [
      { product_id: course, quantity: 1 },
      { product_id: ebook, quantity: 2 },
    ]);
    const refund = await post(`/api/admin/orders/${refunded.orderId}/refunds`, {
      amount_cents: 1000,
      reason: 'Kulanz',
    });
    expect(refund.statusCode, refund.body).toBe(201);
    const late = await post(`/api/admin/orders/${refunded.orderId}/invoice`, { is_business: true });
    expect((await post(`/api/admin/invoices/${late.data.id}/finalize`)).statusCode).toBe(200);
    const refundNote = (
      await call(t.app, 'GET', `/api/admin/credit-notes?invoice_id=${late.data.id}`, { token: f.owner })
    ).data.credit_notes[0];
    expect(refundNote).toMatchObject({ status: 'final', total_cents: 1000 });
    // an invoice-first order cancelled unpaid: the cancellation's credit note
    const unpaid = await unpaidOrder(t, f, { billing: DE_COMPANY, items: [{ product_id: cheese, quantity: 2 }] });
    const first = await post(`/api/admin/orders/${unpaid}/invoice`, { is_business: true });
    expect((await post(`/api/admin/invoices/${first.data.id}/finalize`)).statusCode).toBe(200);
    expect((await post(`/api/admin/orders/${unpaid}/cancel`)).statusCode).toBe(200);
    const cancelNote = (
      await call(t.app, 'GET', `/api/admin/credit-notes?invoice_id=${first.data.id}`, { token: f.owner })
    ).data.credit_notes[0];
    expect(cancelNote).toMatchObject({ status: 'final', reason: 'Stornierung der Bestellung' });

    const docs: [string, string][] = [
      ['b2b-de', `/api/admin/invoices/${b2b.id}`],
      ['two-rates', `/api/admin/invoices/${twoRates.id}`],
      ['shipping', `/api/admin/invoices/${shipped.id}`],
      ['ae', `/api/admin/invoices/${ae.id}`],
      ['k', `/api/admin/invoices/${k.id}`],
      ['g', `/api/admin/invoices/${g.id}`],
      ['o', `/api/admin/invoices/${o.id}`],
      ['abo-ae', `/api/admin/invoices/${aboAe.id}`],
      ['credit-full', `/api/admin/credit-notes/${full.id}`],
      ['credit-lines', `/api/admin/credit-notes/${byLines.id}`],
      ['credit-amount', `/api/admin/credit-notes/${byAmount.id}`],
      ['credit-abo', `/api/admin/credit-notes/${aboCredit.id}`],
      ['credit-refund-before-invoice', `/api/admin/credit-notes/${refundNote.id}`],
      ['credit-cancelled-unpaid', `/api/admin/credit-notes/${cancelNote.id}`],
    ];
    for (const [kind, path] of docs) await save(kind, path);

    // the PDFs carry the exemption texts and, for reverse charge and intra-community supplies, the buyer's VAT ID
    const kPdf = await pdfText(join(dir, 'k.zugferd.pdf'));
    expect(kPdf).toContain(EXEMPTION_TEXT.K);
    expect(kPdf).toContain('USt-IdNr. des Leistungsempfängers: ATU12345678');
    const aePdf = await pdfText(join(dir, 'ae.zugferd.pdf'));
    expect(aePdf).toContain(EXEMPTION_TEXT.AE);
    expect(aePdf).toContain('USt-IdNr. des Leistungsempfängers: ATU12345678');
    expect(await pdfText(join(dir, 'g.zugferd.pdf'))).toContain(EXEMPTION_TEXT.G);
    expect(await pdfText(join(dir, 'o.zugferd.pdf'))).toContain(EXEMPTION_TEXT.O);
    const aboPdf = await pdfText(join(dir, 'abo-ae.zugferd.pdf'));
    expect(aboPdf).toContain(EXEMPTION_TEXT.AE);
    expect(aboPdf).toContain('USt-IdNr. des Leistungsempfängers: ATU12345678');
    // the service period replaces the delivery date; a one-time order keeps its Leistungsdatum
    const german = (d: string) => d.split('-').reverse().join('.');
    // (pdftotext reads the label column of the meta block before its values)
    const period = `${german(aboAe.service_period_start)} – ${german(aboAe.service_period_end)}`;
    expect(aboPdf).toMatch(/Rechnungsdatum Leistungszeitraum Bestellung/);
    expect(aboPdf).toContain(period);
    expect(aboPdf).not.toContain('Leistungsdatum');
    const creditPdf = await pdfText(join(dir, 'credit-abo.zugferd.pdf'));
    expect(creditPdf).toMatch(/Zur Rechnung Leistungszeitraum Bestellung/);
    expect(creditPdf).toContain(period);
    const b2bPdf = await pdfText(join(dir, 'b2b-de.zugferd.pdf'));
    expect(b2bPdf).toMatch(/Rechnungsdatum Leistungsdatum Bestellung/);
    expect(b2bPdf).not.toContain('Leistungszeitraum');

    const { code, out } = await runValidator();
    const last = out.trim().split('\n').pop() ?? '';
    const counts = perKind(out);
    console.log(
      `e-invoice validation per document kind (files, fatal findings):\n${Object.entries(counts)
        .map(([kind, c]) => `  ${kind}: ${c.files} files, ${c.fatal} fatal`)
        .join('\n')}\n${last}`,
    );
    expect(last, out.slice(-6000)).toBe(`EINVOICE: ${docs.length * 3} files, 0 fatal findings`);
    expect(code).toBe(0);
    expect(Object.keys(counts)).toHaveLength(docs.length);
  }, 600_000);
});
