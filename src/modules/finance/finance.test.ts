/**
 * Finance over HTTP against the real app and database: company settings, invoices (totals to
 * the cent, finalization, immutability), PDFs, e-invoices, credit notes and the invoice e-mail.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createShop, expectProblem, PLATFORM_TOKEN, startApp, type TestApp } from '../../../test/helpers/app.js';
import type { ViesStub } from '../../../test/helpers/vies-stub.js';
import { query } from '../../platform/db/tx.js';
import { taxFromGross } from '../../platform/money.js';
import {
  AT_COMPANY,
  BUSINESS,
  draftInvoice,
  type FinanceShop,
  finalInvoice,
  financeShop,
  paidOrder,
  SELLER,
  taxShop,
  unpaidOrder,
} from './finance.fixtures.js';

let t: TestApp;
let f: FinanceShop;
const year = () => t.app.deps.clock.now().toISOString().slice(0, 4);

beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t);
});
afterAll(() => t.close());

const get = (url: string) => call(t.app, 'GET', url, { token: f.owner });
const post = (url: string, body?: unknown) => call(t.app, 'POST', url, { token: f.owner, body });

/** All text contents of an XML element (namespace prefix included in `name`). */
function tags(xml: string, name: string): string[] {
  const re = new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`, 'g');
  return [...xml.matchAll(re)].map((m) => m[1] as string);
}
const one = (xml: string, name: string) => tags(xml, name)[0];
const euros = (cents: number) => (cents / 100).toFixed(2);

describe('company settings', () => {
  it('starts empty with default number formats and names what finalization needs', async () => {
    const other = await createShop(t.app);
    const res = await call(t.app, 'GET', '/api/admin/settings/company', { token: other.ownerToken });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({
      legal_name: null,
      invoice_number_format: 'RE-{YYYY}-{NNNNN}',
      credit_note_number_format: 'GS-{YYYY}-{NNNNN}',
      payment_terms_days: 14,
      time_zone: 'Europe/Berlin',
      updated_at: null,
    });
    expect(res.data.missing_for_invoices).toEqual(['legal_name', 'line1', 'postal_code', 'city', 'country', 'vat_id']);
    expect(res.data.missing_for_e_invoices).toEqual(expect.arrayContaining(['email', 'phone', 'iban']));
  });

  it('stores the data (IBAN normalised) and sets only the given fields', async () => {
    const res = await get('/api/admin/settings/company');
    expect(res.data).toMatchObject({ ...SELLER, iban: 'DE89370400440532013000', missing_for_invoices: [] });
    const put = await call(t.app, 'PUT', '/api/admin/settings/company', {
      token: f.owner,
      body: { invoice_footer: 'Danke!' },
    });
    expect(put.data).toMatchObject({ legal_name: SELLER.legal_name, invoice_footer: 'Danke!' });
    await call(t.app, 'PUT', '/api/admin/settings/company', {
      token: f.owner,
      body: { invoice_footer: SELLER.invoice_footer },
    });
  });

  it('refuses an invalid IBAN, a bad number format, unknown fields and wrong types, changing nothing', async () => {
    const put = (body: unknown) => call(t.app, 'PUT', '/api/admin/settings/company', { token: f.owner, body });
    const iban = await put({ iban: 'DE00 1234 5678 9012 3456 78' });
    expectProblem(iban, 400, 'validation_failed');
    expect(iban.data.errors[0].path).toBe('/body/iban');
    const fmt = await put({ invoice_number_format: 'RE-{YYYY}', credit_note_number_format: 'X-{FOO}-{NNN}' });
    expectProblem(fmt, 400, 'validation_failed');
    expect(fmt.data.errors.map((e: { path: string }) => e.path)).toEqual([
      '/body/invoice_number_format',
      '/body/credit_note_number_format',
    ]);
    expectProblem(await put({ legal_name: 'X', colour: 'red' }), 400, 'validation_failed');
    expectProblem(await put({ payment_terms_days: '14' }), 400, 'validation_failed');
    expectProblem(await put({ country: 'Germany' }), 400, 'validation_failed');
    expectProblem(await put({ time_zone: 'Mars/Olympus' }), 400, 'validation_failed');
    const same = await get('/api/admin/settings/company');
    expect(same.data.iban).toBe('DE89370400440532013000');
    expect(same.data.invoice_number_format).toBe('RE-{YYYY}-{NNNNN}');
  });
});

describe('invoices', () => {
  it('a draft from an order adds up to the cent with mixed tax rates and shipping', async () => {
    const inv = await draftInvoice(t, f);
    expect(inv).toMatchObject({ status: 'draft', number: null, issue_date: null, is_business: false, seller: null });
    const order = (await get(`/api/admin/orders/${inv.order_id}`)).data.order;
    expect(inv.lines.map((l: { name: string; tax_rate: number }) => [l.name, l.tax_rate])).toEqual([
      ['Online-Kurs', 0.19],
      ['E-Book „Steuern“', 0.07],
      ['Bergkäse 250 g', 0.07],
      ['Versand', 0.19],
    ]);
    for (const l of inv.lines) {
      expect(l.tax_cents).toBe(taxFromGross(l.line_total_cents, l.tax_rate));
      expect(l.net_cents + l.tax_cents).toBe(l.line_total_cents);
    }
    const t19 = taxFromGross(9900, 0.19) + taxFromGross(490, 0.19);
    const t7 = taxFromGross(3998, 0.07) + taxFromGross(2997, 0.07);
    expect(inv.tax_breakdown).toEqual([
      {
        tax_rate: 0.19,
        tax_category: 'S',
        tax_exemption_reason: null,
        gross_cents: 10390,
        tax_cents: t19,
        net_cents: 10390 - t19,
      },
      {
        tax_rate: 0.07,
        tax_category: 'S',
        tax_exemption_reason: null,
        gross_cents: 6995,
        tax_cents: t7,
        net_cents: 6995 - t7,
      },
    ]);
    expect(inv).toMatchObject({
      total_cents: 17385,
      tax_cents: t19 + t7,
      net_cents: 17385 - t19 - t7,
      paid_cents: 17385,
      amount_due_cents: 0,
    });
    expect(inv.total_cents).toBe(order.total_cents);
    expect(inv.tax_cents).toBe(order.tax_cents);
  });

  it('one open invoice per order (409 invoice_exists); unknown order 404; body validated', async () => {
    const inv = await draftInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    expectProblem(await post(`/api/admin/orders/${inv.order_id}/invoice`, {}), 409, 'invoice_exists');
    expectProblem(await post('/api/admin/orders/ord_unknown/invoice', {}), 404, 'not_found');
    expectProblem(await post(`/api/admin/orders/${inv.order_id}/invoice`, { colour: 1 }), 400, 'validation_failed');
    expectProblem(
      await post(`/api/admin/orders/${inv.order_id}/invoice`, { is_business: 'yes' }),
      400,
      'validation_failed',
    );
  });

  it('finalizes with the next number, freezes seller data and stores a content hash', async () => {
    const draft = await draftInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 2 }] });
    const res = await post(`/api/admin/invoices/${draft.id}/finalize`);
    expect(res.statusCode).toBe(200);
    expect(res.data.number).toMatch(new RegExp(`^RE-${year()}-\\d{5}$`));
    expect(res.data).toMatchObject({
      status: 'final',
      seller: { legal_name: SELLER.legal_name, vat_id: SELLER.vat_id },
      footer: SELLER.invoice_footer,
      due_date: null,
    });
    expect(res.data.issue_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.data.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(res.data.finalized_at).not.toBeNull();
  });

  it('a final invoice never changes: finalize again, PATCH and DELETE are refused; settings changes do not touch it', async () => {
    const inv = await finalInvoice(t, f, { items: [{ product_id: f.products.ebook, quantity: 1 }] });
    const before = (await get(`/api/admin/invoices/${inv.id}`)).data;
    expectProblem(await post(`/api/admin/invoices/${inv.id}/finalize`), 409, 'already_final');
    expectProblem(
      await call(t.app, 'PATCH', `/api/admin/invoices/${inv.id}`, { token: f.owner, body: { note: 'changed' } }),
      409,
      'document_final',
    );
    expectProblem(
      await call(t.app, 'PATCH', `/api/admin/invoices/${inv.id}`, {
        token: f.owner,
        body: { buyer: { name: 'Someone Else' } },
      }),
      409,
      'document_final',
    );
    expectProblem(
      await call(t.app, 'DELETE', `/api/admin/invoices/${inv.id}`, { token: f.owner }),
      409,
      'document_final',
    );
    expectProblem(await post(`/api/admin/orders/${inv.order_id}/invoice`, {}), 409, 'invoice_exists');
    await call(t.app, 'PUT', '/api/admin/settings/company', { token: f.owner, body: { legal_name: 'Renamed GmbH' } });
    const after = (await get(`/api/admin/invoices/${inv.id}`)).data;
    await call(t.app, 'PUT', '/api/admin/settings/company', {
      token: f.owner,
      body: { legal_name: SELLER.legal_name },
    });
    expect(after).toEqual(before);
    expect(after.seller.legal_name).toBe(SELLER.legal_name);
    // the database refuses it too, whatever code tries
    const db = t.app.deps.database.db;
    await expect(db.execute(sql`UPDATE invoices SET total_cents = 1 WHERE id = ${inv.id}`)).rejects.toThrow();
    await expect(db.execute(sql`UPDATE invoices SET status = 'draft' WHERE id = ${inv.id}`)).rejects.toThrow();
    await expect(db.execute(sql`DELETE FROM invoices WHERE id = ${inv.id}`)).rejects.toThrow();
    expect((await get(`/api/admin/invoices/${inv.id}`)).data).toEqual(before);
  });

  it('a draft can be edited and deleted, after which the order can be invoiced again', async () => {
    const draft = await draftInvoice(t, f, { items: [{ product_id: f.products.ebook, quantity: 1 }] });
    const patched = await call(t.app, 'PATCH', `/api/admin/invoices/${draft.id}`, {
      token: f.owner,
      body: {
        note: 'Lieferung an Empfang',
        buyer: { company: 'Firma X', vat_id: 'de 111 222 333' },
        is_business: true,
      },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.data).toMatchObject({
      note: 'Lieferung an Empfang',
      is_business: true,
      buyer: { company: 'Firma X', vat_id: 'DE111222333', name: 'Erika Muster' },
    });
    expectProblem(
      await call(t.app, 'PATCH', `/api/admin/invoices/${draft.id}`, {
        token: f.owner,
        body: { buyer: { country: 'de' } },
      }),
      400,
      'validation_failed',
    );
    expect((await call(t.app, 'DELETE', `/api/admin/invoices/${draft.id}`, { token: f.owner })).statusCode).toBe(204);
    expectProblem(await get(`/api/admin/invoices/${draft.id}`), 404, 'not_found');
    expect((await post(`/api/admin/orders/${draft.order_id}/invoice`, {})).statusCode).toBe(201);
  });

  it('a draft whose order was refunded in full or cancelled meanwhile is not finalized and takes no number', async () => {
    const full = await draftInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    expect((await post(`/api/admin/orders/${full.order_id}/refunds`, { reason: 'Widerruf' })).data).toMatchObject({
      status: 'succeeded',
      credit_note_id: null,
    });
    const cancelled = await draftInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    expect((await post(`/api/admin/orders/${cancelled.order_id}/cancel`)).statusCode).toBe(200);
    const seq = (n: string) => Number(n.split('-').pop());
    const before = await finalInvoice(t, f, { items: [{ product_id: f.products.ebook, quantity: 1 }] });
    for (const [draft, state] of [
      [full, 'refunded'],
      [cancelled, 'cancelled'],
    ] as const) {
      const res = await post(`/api/admin/invoices/${draft.id}/finalize`);
      expectProblem(res, 409, 'order_not_invoiceable');
      expect(res.data.detail).toContain(state);
      expect((await get(`/api/admin/invoices/${draft.id}`)).data).toMatchObject({ status: 'draft', number: null });
    }
    // no number was taken
    const after = await finalInvoice(t, f, { items: [{ product_id: f.products.ebook, quantity: 1 }] });
    expect(seq(after.number)).toBe(seq(before.number) + 1);
    expect((await call(t.app, 'DELETE', `/api/admin/invoices/${full.id}`, { token: f.owner })).statusCode).toBe(204);
    // a fully refunded order is not invoiced afresh either
    expectProblem(await post(`/api/admin/orders/${full.order_id}/invoice`, {}), 409, 'order_not_invoiceable');
  });

  it('a partially refunded order is invoiced in full; finalizing credits each earlier refund once, in the same numbers', async () => {
    const orderId = await paidOrder(t, f);
    const total = (await get(`/api/admin/orders/${orderId}`)).data.order.total_cents as number;
    const r1 = await post(`/api/admin/orders/${orderId}/refunds`, { amount_cents: 1000, reason: 'Kulanz' });
    const r2 = await post(`/api/admin/orders/${orderId}/refunds`, { amount_cents: 499, reason: 'Bruch' });
    expect([r1.data.credit_note_id, r2.data.credit_note_id]).toEqual([null, null]);
    expect((await get(`/api/admin/orders/${orderId}`)).data.order.status).toBe('partially_refunded');
    const draft = await post(`/api/admin/orders/${orderId}/invoice`, {});
    expect(draft.statusCode).toBe(201);
    expect(draft.data).toMatchObject({ status: 'draft', total_cents: total, paid_cents: total, credited_cents: 0 });
    const fin = await post(`/api/admin/invoices/${draft.data.id}/finalize`);
    expect(fin.statusCode).toBe(200);
    expect(fin.data).toMatchObject({
      status: 'partially_credited',
      number: expect.stringMatching(/^RE-/),
      total_cents: total,
      credited_cents: 1499,
    });
    const notes = (await get(`/api/admin/credit-notes?invoice_id=${draft.data.id}`)).data.credit_notes;
    expect(notes).toHaveLength(2);
    const byTotal = [...notes].sort(
      (a: { total_cents: number }, b: { total_cents: number }) => b.total_cents - a.total_cents,
    );
    expect(byTotal.map((n: { status: string; total_cents: number }) => [n.status, n.total_cents])).toEqual([
      ['final', 1000],
      ['final', 499],
    ]);
    expect(byTotal[0].reason).toContain(r1.data.id);
    expect(byTotal[1].reason).toContain(r2.data.id);
    // each refund now names its credit note; the invoice minus its credit notes is what was kept paid
    const refunds = (await get(`/api/admin/orders/${orderId}/refunds`)).data.refunds;
    expect(refunds.map((r: { credit_note_id: string }) => r.credit_note_id)).toEqual([byTotal[0].id, byTotal[1].id]);
    expect(fin.data.total_cents - fin.data.credited_cents).toBe(total - 1499);
    // a later refund is credited by its own credit note, not again by anything else
    const r3 = await post(`/api/admin/orders/${orderId}/refunds`, { amount_cents: 1, reason: 'Rest' });
    expect(r3.data.credit_note_id).toMatch(/^cn_/);
    const now = (await get(`/api/admin/invoices/${draft.data.id}`)).data;
    expect(now).toMatchObject({ status: 'partially_credited', credited_cents: 1500 });
    expect((await get(`/api/admin/credit-notes?invoice_id=${draft.data.id}`)).data.credit_notes).toHaveLength(3);
  });

  it('a refund that settles while the invoice is a draft is credited by the finalization, exactly once', async () => {
    const draft = await draftInvoice(t, f);
    const r = await post(`/api/admin/orders/${draft.order_id}/refunds`, { amount_cents: 2000, reason: 'Teilwiderruf' });
    expect(r.data).toMatchObject({ status: 'succeeded', credit_note_id: null });
    // the rest of the order ships: fulfilled again, still invoiceable, the refund still to credit
    expect((await post(`/api/admin/orders/${draft.order_id}/fulfill`)).data.status).toBe('fulfilled');
    const fin = await post(`/api/admin/invoices/${draft.id}/finalize`);
    expect(fin.statusCode).toBe(200);
    expect(fin.data).toMatchObject({ status: 'partially_credited', credited_cents: 2000 });
    const notes = (await get(`/api/admin/credit-notes?invoice_id=${draft.id}`)).data.credit_notes;
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ status: 'final', total_cents: 2000 });
    expect((await get(`/api/admin/orders/${draft.order_id}/refunds`)).data.refunds[0].credit_note_id).toBe(notes[0].id);
    // finalize again: 409, nothing credited twice
    expectProblem(await post(`/api/admin/invoices/${draft.id}/finalize`), 409, 'already_final');
    expect((await get(`/api/admin/invoices/${draft.id}`)).data.credited_cents).toBe(2000);
  });

  it('refuses to finalize without seller data (400 naming it) and consumes no number', async () => {
    const g = await financeShop(t, { company: false });
    const orderId = await paidOrder(t, g, { items: [{ product_id: g.products.course, quantity: 1 }] });
    const draft = (await call(t.app, 'POST', `/api/admin/orders/${orderId}/invoice`, { token: g.owner, body: {} }))
      .data;
    const res = await call(t.app, 'POST', `/api/admin/invoices/${draft.id}/finalize`, { token: g.owner });
    expectProblem(res, 400, 'seller_data_missing');
    expect(res.data.detail).toContain('legal_name');
    expect(res.data.detail).toContain('vat_id or tax_number');
    expect(res.data.errors.map((e: { path: string }) => e.path)).toContain('/settings/company/city');
    // a business invoice also needs what an e-invoice needs (contact, IBAN)
    await call(t.app, 'PUT', '/api/admin/settings/company', {
      token: g.owner,
      body: { ...SELLER, iban: null, phone: null },
    });
    await call(t.app, 'PATCH', `/api/admin/invoices/${draft.id}`, { token: g.owner, body: { is_business: true } });
    const b2b = await call(t.app, 'POST', `/api/admin/invoices/${draft.id}/finalize`, { token: g.owner });
    expectProblem(b2b, 400, 'seller_data_missing');
    expect(b2b.data.errors.map((e: { path: string }) => e.path)).toEqual([
      '/settings/company/phone',
      '/settings/company/iban',
    ]);
    await call(t.app, 'PATCH', `/api/admin/invoices/${draft.id}`, { token: g.owner, body: { is_business: false } });
    const ok = await call(t.app, 'POST', `/api/admin/invoices/${draft.id}/finalize`, { token: g.owner });
    expect(ok.data.number).toBe(`RE-${year()}-00001`);
  });

  it('a business buyer needs a full address before a number is taken', async () => {
    const draft = await draftInvoice(
      t,
      f,
      { items: [{ product_id: f.products.course, quantity: 1 }] },
      { is_business: true },
    );
    await call(t.app, 'PATCH', `/api/admin/invoices/${draft.id}`, { token: f.owner, body: { buyer: { city: '' } } });
    const res = await post(`/api/admin/invoices/${draft.id}/finalize`);
    expectProblem(res, 400, 'buyer_data_missing');
    expect(res.data.errors).toEqual([{ path: '/buyer/city', message: 'is required to finalize' }]);
    expect((await get(`/api/admin/invoices/${draft.id}`)).data.number).toBeNull();
  });

  it('lists with status, issue-date range, q and pagination', async () => {
    const fin = await finalInvoice(t, f, { items: [{ product_id: f.products.cheese, quantity: 1 }] });
    const all = await get('/api/admin/invoices?limit=2');
    expect(all.statusCode).toBe(200);
    expect(all.data.invoices).toHaveLength(2);
    expect(all.data.count).toBeGreaterThan(2);
    expect(all.data).toMatchObject({ limit: 2, offset: 0 });
    // the status filter keeps exactly the drafts of the whole list, in its order (and there are some)
    const every = await get('/api/admin/invoices?limit=200');
    expect(every.data.count).toBe(every.data.invoices.length);
    const draftIds = every.data.invoices
      .filter((i: { status: string }) => i.status === 'draft')
      .map((i: { id: string }) => i.id);
    expect(draftIds.length).toBeGreaterThan(0);
    expect(draftIds.length).toBeLessThan(every.data.invoices.length);
    const drafts = await get('/api/admin/invoices?status=draft&limit=200');
    expect(drafts.data.invoices.map((i: { id: string }) => i.id)).toEqual(draftIds);
    expect(drafts.data.count).toBe(draftIds.length);
    const byNumber = await get(`/api/admin/invoices?q=${fin.number}`);
    expect(byNumber.data.invoices.map((i: { id: string }) => i.id)).toEqual([fin.id]);
    const byEmail = await get(`/api/admin/invoices?q=${encodeURIComponent(fin.buyer.email)}`);
    expect(byEmail.data.invoices.map((i: { id: string }) => i.id)).toEqual([fin.id]);
    const today = fin.issue_date;
    const inRange = await get(`/api/admin/invoices?issued_from=${today}&issued_to=${today}&status=final`);
    expect(inRange.data.invoices.map((i: { id: string }) => i.id)).toContain(fin.id);
    const before = await get('/api/admin/invoices?issued_to=2000-01-01');
    expect(before.data.count).toBe(0);
    expectProblem(await get('/api/admin/invoices?status=paid'), 400, 'validation_failed');
    expectProblem(await get('/api/admin/invoices?issued_from=yesterday'), 400, 'validation_failed');
    expectProblem(await get('/api/admin/invoices?limit=500'), 400, 'validation_failed');
  });

  it("another shop's invoice is 404", async () => {
    const inv = await finalInvoice(t, f, { items: [{ product_id: f.products.cheese, quantity: 1 }] });
    const other = await createShop(t.app);
    const res = await call(t.app, 'GET', `/api/admin/invoices/${inv.id}`, { token: other.ownerToken });
    expectProblem(res, 404, 'not_found');
    expectProblem(
      await call(t.app, 'POST', `/api/admin/invoices/${inv.id}/credit-note`, { token: other.ownerToken, body: {} }),
      404,
      'not_found',
    );
  });
});

describe('PDF', () => {
  it('renders application/pdf with an embedded font, byte-identical every time for a final invoice', async () => {
    const inv = await finalInvoice(t, f);
    const a = await get(`/api/admin/invoices/${inv.id}/pdf`);
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toBe('application/pdf');
    expect(a.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = a.rawPayload.toString('latin1');
    expect(text).toContain('/FontFile2');
    expect(text).toContain('DejaVuSans');
    expect(text).toContain(`Rechnung ${inv.number} zu Bestellung`);
    // sending it (which records sent_at) changes nothing in the document
    await post(`/api/admin/invoices/${inv.id}/send-email`, {});
    const b = await get(`/api/admin/invoices/${inv.id}/pdf`);
    expect(Buffer.compare(a.rawPayload, b.rawPayload)).toBe(0);
  });

  it('marks a draft as a draft', async () => {
    const draft = await draftInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    const res = await get(`/api/admin/invoices/${draft.id}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res.rawPayload.toString('latin1')).toContain('Rechnung (Entwurf)');
    expectProblem(await get(`/api/admin/invoices/${draft.id}/pdf?format=zugferd`), 409, 'invoice_not_final');
    expectProblem(await get(`/api/admin/invoices/${draft.id}/pdf?format=xml`), 400, 'validation_failed');
    expectProblem(await get('/api/admin/invoices/inv_unknown/pdf'), 404, 'not_found');
  });
});

describe('e-invoices', () => {
  let b2b: Awaited<ReturnType<typeof finalInvoice>>;
  beforeAll(async () => {
    b2b = await finalInvoice(t, f, { billing: BUSINESS });
  });

  it('a buyer with a VAT ID is a business buyer', () => {
    expect(b2b.is_business).toBe(true);
    expect(b2b.buyer).toMatchObject({ company: 'Beispiel AG', vat_id: 'DE987654321' });
  });

  it('XRechnung 3.0 UBL has the EN 16931 required elements and adds up', async () => {
    const res = await get(`/api/admin/invoices/${b2b.id}/xrechnung`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    const xml = res.body;
    expect(xml).toContain('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"');
    expect(one(xml, 'cbc:CustomizationID')).toBe(
      'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
    ); // BT-24
    expect(one(xml, 'cbc:ID')).toBe(b2b.number); // BT-1
    expect(one(xml, 'cbc:IssueDate')).toBe(b2b.issue_date); // BT-2
    expect(one(xml, 'cbc:InvoiceTypeCode')).toBe('380'); // BT-3
    expect(one(xml, 'cbc:DocumentCurrencyCode')).toBe('EUR'); // BT-5
    expect(one(xml, 'cbc:BuyerReference')).toBeTruthy(); // BT-10 (BR-DE-15)
    expect(tags(xml, 'cbc:RegistrationName')).toEqual([SELLER.legal_name, 'Beispiel AG']); // BT-27, BT-44
    // seller, buyer and the deliver-to address of the shipped goods (BG-15)
    expect(tags(xml, 'cbc:IdentificationCode')).toEqual(['DE', 'DE', 'DE']); // BT-40, BT-55, BT-80
    expect(tags(xml, 'cbc:CityName')).toEqual(['Hamburg', 'Berlin', 'Berlin']); // BR-DE-3, BR-DE-8, BR-DE-10
    expect(tags(xml, 'cbc:PostalZone')).toEqual(['20095', '10115', '10115']); // BR-DE-4, BR-DE-9, BR-DE-11
    expect(tags(xml, 'cbc:CompanyID')).toEqual(expect.arrayContaining(['DE123456789', 'DE987654321'])); // BT-31, BT-48
    expect(one(xml, 'cbc:Telephone')).toBe(SELLER.phone); // BR-DE-6
    expect(tags(xml, 'cbc:ElectronicMail')).toContain(SELLER.email); // BR-DE-7
    expect(tags(xml, 'cbc:EndpointID')).toEqual([SELLER.email, b2b.buyer.email]); // BT-34, BT-49
    expect(one(xml, 'cbc:PaymentMeansCode')).toBe('58'); // BT-81 (BR-DE-1)
    expect(one(xml, 'cbc:ActualDeliveryDate')).toBe(b2b.service_date); // BT-72
    // a one-time order has no service period (BG-14): only subscription payments state one
    expect(b2b).toMatchObject({ service_period_start: null, service_period_end: null });
    expect(xml).not.toContain('InvoicePeriod');
    expect(tags(xml, 'cbc:ID')).toContain('DE89370400440532013000'); // BT-84 (BR-DE-23)
    // totals: BT-106 = Σ BT-131, BT-112 = BT-109 + BT-110, BT-115 = BT-112 − BT-113
    const lineNets = tags(xml, 'cbc:LineExtensionAmount').map(Number);
    const docNet = lineNets.shift() as number;
    expect(lineNets).toHaveLength(b2b.lines.length);
    expect(euros(Math.round(lineNets.reduce((s, x) => s + x, 0) * 100))).toBe(docNet.toFixed(2));
    expect(docNet.toFixed(2)).toBe(euros(b2b.net_cents));
    expect(one(xml, 'cbc:TaxExclusiveAmount')).toBe(euros(b2b.net_cents));
    expect(one(xml, 'cbc:TaxInclusiveAmount')).toBe(euros(b2b.total_cents));
    expect(one(xml, 'cbc:PrepaidAmount')).toBe(euros(b2b.paid_cents));
    expect(one(xml, 'cbc:PayableAmount')).toBe('0.00');
    // BG-23 VAT breakdown per rate; BT-117 ≈ BT-116 × rate (BR-CO-17)
    const taxAmounts = tags(xml, 'cbc:TaxAmount');
    expect(taxAmounts[0]).toBe(euros(b2b.tax_cents)); // BT-110
    expect(tags(xml, 'cbc:TaxableAmount')).toEqual(
      b2b.tax_breakdown.map((g: { net_cents: number }) => euros(g.net_cents)),
    );
    expect(b2b.tax_breakdown.map((g: { tax_rate: number }) => g.tax_rate)).toEqual([0.19, 0.07]);
    for (const g of b2b.tax_breakdown) {
      expect(Math.abs(g.tax_cents - Math.round(g.net_cents * g.tax_rate))).toBeLessThanOrEqual(1 * b2b.lines.length);
    }
    expect(tags(xml, 'cbc:Percent')).toEqual(expect.arrayContaining(['19', '7']));
    // lines: BT-126, BT-129, BT-153, BT-151, BT-146
    expect(xml.match(/<cac:InvoiceLine>/g)).toHaveLength(b2b.lines.length);
    expect(tags(xml, 'cbc:InvoicedQuantity')).toEqual(b2b.lines.map((l: { quantity: number }) => String(l.quantity)));
    expect(tags(xml, 'cbc:Name')).toEqual(expect.arrayContaining(b2b.lines.map((l: { name: string }) => l.name)));
    expect(tags(xml, 'cbc:PriceAmount')).toHaveLength(b2b.lines.length);
  });

  it('XRechnung CII on request', async () => {
    const res = await get(`/api/admin/invoices/${b2b.id}/xrechnung?syntax=cii`);
    expect(res.statusCode).toBe(200);
    const xml = res.body;
    expect(xml).toContain('rsm:CrossIndustryInvoice');
    expect(xml).toContain('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0');
    expect(one(xml, 'ram:TypeCode')).toBe('380');
    expect(xml).toContain(b2b.number);
    expect(one(xml, 'ram:GrandTotalAmount')).toBe(euros(b2b.total_cents));
    expect(one(xml, 'ram:DuePayableAmount')).toBe('0.00');
    // CII requires the header delivery block (validated against the Factur-X 1.07.3 EN 16931 XSD, see docs/finance.md)
    expect(xml).toContain('<ram:ApplicableHeaderTradeDelivery>');
    expect(xml.indexOf('<ram:ApplicableHeaderTradeDelivery>')).toBeLessThan(
      xml.indexOf('<ram:ApplicableHeaderTradeSettlement>'),
    );
  });

  it('Factur-X/ZUGFeRD EN 16931: a PDF/A-3 with factur-x.xml embedded', async () => {
    const res = await get(`/api/admin/invoices/${b2b.id}/pdf?format=zugferd`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const raw = res.rawPayload.toString('latin1');
    expect(raw.startsWith('%PDF-')).toBe(true);
    expect(raw).toContain('factur-x.xml');
    expect(raw).toContain('pdfaid');
  });

  it('B2C invoices stay plain PDF: e-invoice formats are 409 einvoice_not_applicable', async () => {
    const b2c = await finalInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    expect(b2c.is_business).toBe(false);
    expectProblem(await get(`/api/admin/invoices/${b2c.id}/xrechnung`), 409, 'einvoice_not_applicable');
    expectProblem(await get(`/api/admin/invoices/${b2c.id}/pdf?format=zugferd`), 409, 'einvoice_not_applicable');
    expect((await get(`/api/admin/invoices/${b2c.id}/pdf`)).statusCode).toBe(200);
    expectProblem(await get(`/api/admin/invoices/${b2b.id}/xrechnung?syntax=json`), 400, 'validation_failed');
  });

  it('a buyer marked as business without a VAT ID gets e-invoices too', async () => {
    const inv = await finalInvoice(
      t,
      f,
      { items: [{ product_id: f.products.course, quantity: 1 }] },
      { is_business: true },
    );
    const res = await get(`/api/admin/invoices/${inv.id}/xrechnung`);
    expect(res.statusCode).toBe(200);
    expect(one(res.body, 'cbc:InvoiceTypeCode')).toBe('380');
  });

  it('finalization refuses a business document an e-invoice could not be made of, before a number is taken', async () => {
    // the seller and buyer checks run first and cover the usual gaps: bend the data in the database
    const db = t.app.deps.database.db;
    const inv = await finalInvoice(t, f, {
      billing: BUSINESS,
      items: [{ product_id: f.products.course, quantity: 1 }],
    });
    const draft = await draftInvoice(t, f, {
      billing: BUSINESS,
      items: [{ product_id: f.products.course, quantity: 1 }],
    });
    await db.execute(sql`UPDATE invoices SET currency = 'eur' WHERE id = ${draft.id}`);
    const res = await post(`/api/admin/invoices/${draft.id}/finalize`);
    expectProblem(res, 400, 'einvoice_data_missing');
    expect(res.data.detail).toBe('An EN 16931 e-invoice needs /currency');
    expect(res.data.errors).toEqual([{ path: '/currency', message: 'is required for an EN 16931 e-invoice' }]);
    expect((await get(`/api/admin/invoices/${draft.id}`)).data).toMatchObject({ status: 'draft', number: null });

    const cn = (await post(`/api/admin/invoices/${inv.id}/credit-note`, { amount_cents: 100 })).data;
    await db.execute(sql`UPDATE credit_notes SET currency = 'eur' WHERE id = ${cn.id}`);
    const cnRes = await post(`/api/admin/credit-notes/${cn.id}/finalize`);
    expectProblem(cnRes, 400, 'einvoice_data_missing');
    expect(cnRes.data.detail).toBe('An EN 16931 credit note needs /currency');
    expect(cnRes.data.errors).toEqual([{ path: '/currency', message: 'is required for an EN 16931 e-invoice' }]);
    expect((await get(`/api/admin/credit-notes/${cn.id}`)).data).toMatchObject({ status: 'draft', number: null });
    expect((await get(`/api/admin/invoices/${inv.id}`)).data).toMatchObject({ status: 'final', credited_cents: 0 });
  });
});

describe('cancelled orders', () => {
  const invoiceOf = async (orderId: string) => {
    const draft = await post(`/api/admin/orders/${orderId}/invoice`, {});
    expect(draft.statusCode).toBe(201);
    const fin = await post(`/api/admin/invoices/${draft.data.id}/finalize`);
    expect(fin.statusCode).toBe(200);
    return fin.data;
  };
  const notesOf = async (invoiceId: string) =>
    (await get(`/api/admin/credit-notes?invoice_id=${invoiceId}`)).data.credit_notes as {
      id: string;
      status: string;
      number: string | null;
      total_cents: number;
      tax_cents: number;
      reason: string | null;
    }[];

  it('an unpaid order cancelled by the admin after its invoice: the invoice is credited in full, once', async () => {
    const orderId = await unpaidOrder(t, f);
    const inv = await invoiceOf(orderId);
    expect(inv).toMatchObject({ status: 'final', paid_cents: 0, amount_due_cents: inv.total_cents });
    // a draft made by hand is superseded by the cancellation's credit note
    const draft = await post(`/api/admin/invoices/${inv.id}/credit-note`, { amount_cents: 100 });
    expect(draft.statusCode).toBe(201);
    expect((await post(`/api/admin/orders/${orderId}/cancel`)).data.status).toBe('cancelled');
    const notes = await notesOf(inv.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      status: 'final',
      number: expect.stringMatching(/^GS-/),
      total_cents: inv.total_cents,
      tax_cents: inv.tax_cents,
      reason: 'Stornierung der Bestellung',
    });
    expectProblem(await get(`/api/admin/credit-notes/${draft.data.id}`), 404, 'not_found');
    expect((await get(`/api/admin/invoices/${inv.id}`)).data).toMatchObject({
      status: 'credited',
      credited_cents: inv.total_cents,
    });
    // cancelled is final: nothing moves again
    expectProblem(await post(`/api/admin/orders/${orderId}/cancel`), 409, 'invalid_state');
    expect(await notesOf(inv.id)).toHaveLength(1);
  });

  it('an unpaid order whose payment time runs out: its invoice is credited for what is left', async () => {
    const orderId = await unpaidOrder(t, f, { ttlHours: 1 });
    const inv = await invoiceOf(orderId);
    const part = await post(`/api/admin/invoices/${inv.id}/credit-note`, { amount_cents: 500, reason: 'Nachlass' });
    expect((await post(`/api/admin/credit-notes/${part.data.id}/finalize`)).statusCode).toBe(200);
    await call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds: 2 * 3600 } });
    expect((await get(`/api/admin/orders/${orderId}`)).data.order.status).toBe('cancelled');
    const notes = await notesOf(inv.id);
    expect(notes.map((n) => [n.status, n.total_cents, n.reason])).toEqual(
      expect.arrayContaining([
        ['final', 500, 'Nachlass'],
        ['final', inv.total_cents - 500, 'Stornierung der Bestellung'],
      ]),
    );
    expect(notes).toHaveLength(2);
    expect((await get(`/api/admin/invoices/${inv.id}`)).data).toMatchObject({
      status: 'credited',
      credited_cents: inv.total_cents,
    });
  });

  it('an unpaid order cancelled without an invoice, or with a draft only, gets no credit note', async () => {
    const bare = await unpaidOrder(t, f);
    expect((await post(`/api/admin/orders/${bare}/cancel`)).data.status).toBe('cancelled');
    const withDraft = await unpaidOrder(t, f);
    const draft = await post(`/api/admin/orders/${withDraft}/invoice`, {});
    expect((await post(`/api/admin/orders/${withDraft}/cancel`)).data.status).toBe('cancelled');
    expect(await notesOf(draft.data.id)).toEqual([]);
    expectProblem(await post(`/api/admin/invoices/${draft.data.id}/finalize`), 409, 'order_not_invoiceable');
  });

  it('an unpaid order of 0 cents with a final invoice can be cancelled, by the admin or its payment time: nothing to credit', async () => {
    const free = await post('/api/products', { name: 'Gratis-Probe', status: 'published', is_digital: true });
    expect(free.data.base_price_cents).toBe(0);
    const listed = await call(t.app, 'PATCH', `/api/products/${free.data.id}/channels/${f.channel}`, {
      token: f.owner,
      body: { is_published: true },
    });
    expect(listed.statusCode).toBe(200);
    const items = [{ product_id: free.data.id, quantity: 1 }];
    const byAdmin = await unpaidOrder(t, f, { items });
    const inv = await invoiceOf(byAdmin);
    expect(inv).toMatchObject({ status: 'final', total_cents: 0 });
    const res = await post(`/api/admin/orders/${byAdmin}/cancel`);
    expect(res.statusCode).toBe(200);
    expect(res.data.status).toBe('cancelled');
    expect(await notesOf(inv.id)).toEqual([]);
    const timedOut = await unpaidOrder(t, f, { items, ttlHours: 1 });
    const inv2 = await invoiceOf(timedOut);
    await call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds: 2 * 3600 } });
    expect((await get(`/api/admin/orders/${timedOut}`)).data.order.status).toBe('cancelled');
    expect(await notesOf(inv2.id)).toEqual([]);
  });

  it('a paid order that is cancelled keeps its invoice until its refund credits it', async () => {
    const inv = await finalInvoice(t, f);
    expect((await post(`/api/admin/orders/${inv.order_id}/cancel`)).data.status).toBe('cancelled');
    expect(await notesOf(inv.id)).toEqual([]);
    expect((await get(`/api/admin/invoices/${inv.id}`)).data.status).toBe('final');
    const r = await post(`/api/admin/orders/${inv.order_id}/refunds`, { reason: 'Storniert' });
    expect(r.data).toMatchObject({ status: 'succeeded', amount_cents: inv.total_cents });
    const notes = await notesOf(inv.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ id: r.data.credit_note_id, status: 'final', total_cents: inv.total_cents });
    expect((await get(`/api/admin/invoices/${inv.id}`)).data).toMatchObject({ status: 'credited' });
    expect((await get(`/api/admin/orders/${inv.order_id}`)).data.order.status).toBe('cancelled');
  });
});

describe('credit notes', () => {
  it('full by default: the same lines, its own number range, and the invoice becomes credited', async () => {
    const inv = await finalInvoice(t, f);
    const cn = await post(`/api/admin/invoices/${inv.id}/credit-note`, { reason: 'Storno' });
    expect(cn.statusCode).toBe(201);
    expect(cn.data).toMatchObject({
      status: 'draft',
      number: null,
      invoice_id: inv.id,
      invoice_number: inv.number,
      total_cents: inv.total_cents,
      tax_cents: inv.tax_cents,
      net_cents: inv.net_cents,
      reason: 'Storno',
    });
    expect(cn.data.tax_breakdown).toEqual(inv.tax_breakdown);
    expect(cn.data.lines.map((l: { invoice_position: number }) => l.invoice_position)).toEqual([1, 2, 3, 4]);
    // nothing is left to credit while the draft exists
    expectProblem(await post(`/api/admin/invoices/${inv.id}/credit-note`, {}), 409, 'fully_credited');
    const fin = await post(`/api/admin/credit-notes/${cn.data.id}/finalize`);
    expect(fin.statusCode).toBe(200);
    expect(fin.data.number).toMatch(new RegExp(`^GS-${year()}-\\d{5}$`));
    expect(fin.data.content_hash).toMatch(/^sha256:/);
    const after = (await get(`/api/admin/invoices/${inv.id}`)).data;
    expect(after).toMatchObject({
      status: 'credited',
      credited_cents: inv.total_cents,
      content_hash: inv.content_hash,
    });
    expectProblem(await post(`/api/admin/credit-notes/${cn.data.id}/finalize`), 409, 'already_final');
    expectProblem(
      await call(t.app, 'DELETE', `/api/admin/credit-notes/${cn.data.id}`, { token: f.owner }),
      409,
      'document_final',
    );
    expectProblem(await post(`/api/admin/invoices/${inv.id}/credit-note`, {}), 409, 'fully_credited');
    // a fully credited invoice frees the order for a corrected invoice
    expect((await post(`/api/admin/orders/${inv.order_id}/invoice`, {})).statusCode).toBe(201);
  });

  it('a refund settles even when the company data no longer allows its credit note: the note stays a draft to finalize later', async () => {
    const inv = await finalInvoice(t, f, {
      items: [{ product_id: f.products.course, quantity: 1 }],
      billing: { ...BUSINESS },
    });
    expect(inv.is_business).toBe(true);
    // a business credit note needs the seller's phone (XRechnung BR-DE-6); it was removed since the invoice
    await call(t.app, 'PUT', '/api/admin/settings/company', { token: f.owner, body: { phone: null } });
    const refund = await post(`/api/admin/orders/${inv.order_id}/refunds`, { amount_cents: 500, reason: 'Kulanz' });
    await call(t.app, 'PUT', '/api/admin/settings/company', { token: f.owner, body: { phone: SELLER.phone } });
    expect(refund.statusCode, refund.body).toBe(201);
    expect(refund.data).toMatchObject({ status: 'succeeded', credit_note_id: expect.stringMatching(/^cn/) });
    expect((await get(`/api/admin/orders/${inv.order_id}`)).data.order.status).toBe('partially_refunded');
    const draft = (await get(`/api/admin/credit-notes/${refund.data.credit_note_id}`)).data;
    expect(draft).toMatchObject({ status: 'draft', number: null, invoice_id: inv.id, total_cents: 500 });
    const fin = await post(`/api/admin/credit-notes/${draft.id}/finalize`);
    expect(fin.statusCode, fin.body).toBe(200);
    expect((await get(`/api/admin/invoices/${inv.id}`)).data).toMatchObject({
      status: 'partially_credited',
      credited_cents: 500,
    });
  });

  it('partial by lines and quantities, then by amount; over-credit is refused', async () => {
    const inv = await finalInvoice(t, f);
    // one of the two e-books
    const one1 = await post(`/api/admin/invoices/${inv.id}/credit-note`, { lines: [{ position: 2, quantity: 1 }] });
    expect(one1.statusCode).toBe(201);
    expect(one1.data.lines).toEqual([
      expect.objectContaining({
        invoice_position: 2,
        quantity: 1,
        line_total_cents: 1999,
        tax_rate: 0.07,
        tax_cents: taxFromGross(1999, 0.07),
        net_cents: 1999 - taxFromGross(1999, 0.07),
      }),
    ]);
    await post(`/api/admin/credit-notes/${one1.data.id}/finalize`);
    expect((await get(`/api/admin/invoices/${inv.id}`)).data).toMatchObject({
      status: 'partially_credited',
      credited_cents: 1999,
    });
    // more than is left of a line
    const over = await post(`/api/admin/invoices/${inv.id}/credit-note`, { lines: [{ position: 2, quantity: 2 }] });
    expectProblem(over, 409, 'credit_exceeds_invoice');
    expect(over.data.errors[0].path).toBe('/body/lines/0/quantity');
    expectProblem(
      await post(`/api/admin/invoices/${inv.id}/credit-note`, { lines: [{ position: 9, quantity: 1 }] }),
      400,
      'validation_failed',
    );
    // the second e-book takes the exact remainder of the line
    const rest = await post(`/api/admin/invoices/${inv.id}/credit-note`, { lines: [{ position: 2, quantity: 1 }] });
    const line2 = inv.lines[1];
    expect(rest.data.lines[0]).toMatchObject({
      line_total_cents: line2.line_total_cents - 1999,
      tax_cents: line2.tax_cents - taxFromGross(1999, 0.07),
    });
    await call(t.app, 'DELETE', `/api/admin/credit-notes/${rest.data.id}`, { token: f.owner });
    // an amount is split over the tax rates in proportion to what is left
    const left = inv.total_cents - 1999;
    expectProblem(
      await post(`/api/admin/invoices/${inv.id}/credit-note`, { amount_cents: left + 1 }),
      409,
      'credit_exceeds_invoice',
    );
    const amt = await post(`/api/admin/invoices/${inv.id}/credit-note`, { amount_cents: 5000, reason: 'Kulanz' });
    expect(amt.statusCode).toBe(201);
    expect(amt.data.total_cents).toBe(5000);
    expect(amt.data.lines).toHaveLength(2);
    for (const l of amt.data.lines) {
      expect(l.invoice_position).toBeNull();
      expect(l.tax_cents).toBe(taxFromGross(l.line_total_cents, l.tax_rate));
    }
    const [g19, g7] = inv.tax_breakdown;
    const share19 = (5000 * g19.gross_cents) / (g19.gross_cents + g7.gross_cents - 1999);
    expect(Math.abs(amt.data.lines[0].line_total_cents - share19)).toBeLessThan(1);
    await post(`/api/admin/credit-notes/${amt.data.id}/finalize`);
    // the rest in full: the total credited equals the invoice, never more
    const full = await post(`/api/admin/invoices/${inv.id}/credit-note`, {});
    expect(full.data.total_cents).toBe(inv.total_cents - 1999 - 5000);
    await post(`/api/admin/credit-notes/${full.data.id}/finalize`);
    const final = (await get(`/api/admin/invoices/${inv.id}`)).data;
    expect(final).toMatchObject({ status: 'credited', credited_cents: inv.total_cents });
    const notes = (await get(`/api/admin/credit-notes?invoice_id=${inv.id}&status=final`)).data;
    expect(notes.count).toBe(3);
    const sumRate = (rate: number) =>
      notes.credit_notes
        .flatMap(
          (n: { tax_breakdown: { tax_rate: number; gross_cents: number; tax_cents: number }[] }) => n.tax_breakdown,
        )
        .filter((g: { tax_rate: number }) => g.tax_rate === rate)
        .reduce((s: number, g: { gross_cents: number }) => s + g.gross_cents, 0);
    expect(sumRate(0.19)).toBe(g19.gross_cents);
    expect(sumRate(0.07)).toBe(g7.gross_cents);
    expectProblem(await post(`/api/admin/invoices/${inv.id}/credit-note`, { amount_cents: 1 }), 409, 'fully_credited');
  });

  it('validates the body and needs a final invoice', async () => {
    const inv = await finalInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    const both = await post(`/api/admin/invoices/${inv.id}/credit-note`, {
      lines: [{ position: 1, quantity: 1 }],
      amount_cents: 100,
    });
    expectProblem(both, 400, 'validation_failed');
    expectProblem(
      await post(`/api/admin/invoices/${inv.id}/credit-note`, { amount_cents: 0 }),
      400,
      'validation_failed',
    );
    expectProblem(
      await post(`/api/admin/invoices/${inv.id}/credit-note`, { amount_cents: '5' }),
      400,
      'validation_failed',
    );
    expectProblem(await post(`/api/admin/invoices/${inv.id}/credit-note`, { lines: [] }), 400, 'validation_failed');
    expectProblem(
      await post(`/api/admin/invoices/${inv.id}/credit-note`, {
        lines: [
          { position: 1, quantity: 1 },
          { position: 1, quantity: 1 },
        ],
      }),
      400,
      'validation_failed',
    );
    const draft = await draftInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    expectProblem(await post(`/api/admin/invoices/${draft.id}/credit-note`, {}), 409, 'invoice_not_final');
    expectProblem(await post('/api/admin/credit-notes/cn_unknown/finalize'), 404, 'not_found');
    expect((await get(`/api/admin/credit-notes?invoice_id=${inv.id}`)).data.count).toBe(0);
  });

  it('the credit-note PDF references the invoice; B2B credit notes are e-invoices with type code 381', async () => {
    const inv = await finalInvoice(t, f, { billing: BUSINESS });
    const cn = (await post(`/api/admin/invoices/${inv.id}/credit-note`, { amount_cents: 1000 })).data;
    const draftPdf = await get(`/api/admin/credit-notes/${cn.id}/pdf`);
    expect(draftPdf.rawPayload.toString('latin1')).toContain(`Gutschrift (Entwurf) zu Rechnung ${inv.number}`);
    expectProblem(await get(`/api/admin/credit-notes/${cn.id}/xrechnung`), 409, 'credit_note_not_final');
    const fin = (await post(`/api/admin/credit-notes/${cn.id}/finalize`)).data;
    const pdf = await get(`/api/admin/credit-notes/${cn.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.toString('latin1')).toContain(`Gutschrift ${fin.number} zu Rechnung ${inv.number}`);
    const again = await get(`/api/admin/credit-notes/${cn.id}/pdf`);
    expect(Buffer.compare(pdf.rawPayload, again.rawPayload)).toBe(0);
    const xml = (await get(`/api/admin/credit-notes/${cn.id}/xrechnung`)).body;
    expect(xml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    expect(one(xml, 'cbc:CreditNoteTypeCode')).toBe('381');
    expect(xml).toMatch(
      new RegExp(`<cac:BillingReference>\\s*<cac:InvoiceDocumentReference>\\s*<cbc:ID>${inv.number}</cbc:ID>`),
    );
    expect(one(xml, 'cbc:TaxInclusiveAmount')).toBe('10.00');
    const cii = (await get(`/api/admin/credit-notes/${cn.id}/xrechnung?syntax=cii`)).body;
    expect(one(cii, 'ram:TypeCode')).toBe('381');
    const z = await get(`/api/admin/credit-notes/${cn.id}/pdf?format=zugferd`);
    expect(z.statusCode).toBe(200);
    expect(z.rawPayload.toString('latin1')).toContain('factur-x.xml');
    const list = await get(`/api/admin/credit-notes?q=${fin.number}`);
    expect(list.data.credit_notes.map((c: { id: string }) => c.id)).toEqual([cn.id]);
  });

  it("lists by invoice, order, issue date, q and page; another shop's credit note is 404 before any state check", async () => {
    const inv = await finalInvoice(t, f, { items: [{ product_id: f.products.cheese, quantity: 1 }] });
    const cn = (await post(`/api/admin/invoices/${inv.id}/credit-note`, { amount_cents: 100 })).data;
    const fin = (await post(`/api/admin/credit-notes/${cn.id}/finalize`)).data;
    const draft = (await post(`/api/admin/invoices/${inv.id}/credit-note`, { amount_cents: 100 })).data;
    const ids = async (query: string) =>
      (await get(`/api/admin/credit-notes?${query}`)).data.credit_notes.map((c: { id: string }) => c.id);
    expect((await ids(`invoice_id=${inv.id}`)).sort()).toEqual([cn.id, draft.id].sort());
    expect(await ids(`invoice_id=${inv.id}&status=final`)).toEqual([cn.id]);
    expect((await ids(`order_id=${inv.order_id}`)).sort()).toEqual([cn.id, draft.id].sort());
    expect((await ids(`q=${inv.number}`)).sort()).toEqual([cn.id, draft.id].sort());
    expect(await ids(`issued_from=${fin.issue_date}&issued_to=${fin.issue_date}&order_id=${inv.order_id}`)).toEqual([
      cn.id,
    ]);
    expect(await ids(`issued_to=2000-01-01&order_id=${inv.order_id}`)).toEqual([]);
    const page = await get(`/api/admin/credit-notes?invoice_id=${inv.id}&limit=1&offset=1`);
    expect(page.data).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(page.data.credit_notes).toHaveLength(1);
    expectProblem(await get('/api/admin/credit-notes?status=credited'), 400, 'validation_failed');

    const other = await createShop(t.app);
    const as = (method: 'GET' | 'POST' | 'DELETE', url: string) =>
      call(t.app, method, url, { token: other.ownerToken });
    for (const [method, url] of [
      ['GET', `/api/admin/credit-notes/${cn.id}`],
      ['GET', `/api/admin/credit-notes/${cn.id}/pdf`],
      ['GET', `/api/admin/credit-notes/${cn.id}/xrechnung`],
      ['POST', `/api/admin/credit-notes/${cn.id}/finalize`],
      ['DELETE', `/api/admin/credit-notes/${cn.id}`],
      ['POST', `/api/admin/credit-notes/${draft.id}/finalize`],
      ['DELETE', `/api/admin/credit-notes/${draft.id}`],
    ] as const) {
      const res = await as(method, url);
      expectProblem(res, 404, 'not_found');
      expect(res.data.detail).toBe('Credit note not found');
    }
    expect((await as('GET', '/api/admin/credit-notes')).data.count).toBe(0);
    expect((await get(`/api/admin/credit-notes/${draft.id}`)).data.status).toBe('draft');
  });
});

describe('invoice e-mail', () => {
  it('only final invoices; goes to the outbox with the PDF attached; records sent_at and recipient; repeatable', async () => {
    const draft = await draftInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    expectProblem(await post(`/api/admin/invoices/${draft.id}/send-email`, {}), 409, 'invoice_not_final');
    const fin = (await post(`/api/admin/invoices/${draft.id}/finalize`)).data;
    const first = await post(`/api/admin/invoices/${fin.id}/send-email`, {});
    expect(first.statusCode).toBe(200);
    expect(first.data).toMatchObject({
      to: fin.buyer.email,
      invoice: { sent_to: fin.buyer.email, send_count: 1 },
      attachment: { filename: `Rechnung-${fin.number}.pdf` },
    });
    expect(first.data.invoice.sent_at).not.toBeNull();
    const db = t.app.deps.database.db;
    const mails = await query<{ id: string; to_address: string; subject: string; kind: string }>(
      db,
      sql`SELECT id, to_address, subject, kind FROM emails WHERE shop_id = ${f.shop.shopId} AND id = ${first.data.email_id}`,
    );
    expect(mails[0]).toMatchObject({ to_address: fin.buyer.email, kind: 'invoice' });
    expect(mails[0]?.subject).toContain(fin.number);
    const files = await query<{ filename: string; content_type: string; content: string; size_bytes: number }>(
      db,
      sql`SELECT filename, content_type, content, size_bytes FROM email_attachments WHERE email_id = ${first.data.email_id}`,
    );
    expect(files).toHaveLength(1);
    const pdf = Buffer.from(files[0]?.content ?? '', 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBe(files[0]?.size_bytes);
    const second = await post(`/api/admin/invoices/${fin.id}/send-email`, { to: 'buchhaltung@kunde.test' });
    expect(second.data.invoice).toMatchObject({ sent_to: 'buchhaltung@kunde.test', send_count: 2 });
    expect(second.data.email_id).not.toBe(first.data.email_id);
    expectProblem(
      await post(`/api/admin/invoices/${fin.id}/send-email`, { to: 'not-an-email' }),
      400,
      'validation_failed',
    );
    // the content of the invoice is unchanged
    expect((await get(`/api/admin/invoices/${fin.id}`)).data.content_hash).toBe(fin.content_hash);
  });

  it('a business invoice is sent as Factur-X/ZUGFeRD', async () => {
    const fin = await finalInvoice(t, f, {
      billing: BUSINESS,
      items: [{ product_id: f.products.course, quantity: 1 }],
    });
    const res = await post(`/api/admin/invoices/${fin.id}/send-email`, {});
    expect(res.data.attachment.filename).toBe(`Rechnung-${fin.number}-zugferd.pdf`);
  });
});

describe('§ 14a UStG: the buyer VAT ID of intra-community supplies and reverse charge', () => {
  let tt: TestApp;
  let ff: FinanceShop;
  let vies: ViesStub;
  beforeAll(async () => {
    ({ t: tt, f: ff, vies } = await taxShop({ name: 'Welt', price_cents: 1190 }));
  });
  afterAll(async () => {
    await tt?.close();
    await vies?.close();
  });

  it.each([
    ['K', 'cheese'],
    ['AE', 'course'],
  ] as const)(
    'a %s invoice without the buyer VAT ID is refused before a number is taken',
    async (category, product) => {
      const draft = await draftInvoice(tt, ff, {
        billing: AT_COMPANY,
        items: [{ product_id: ff.products[product], quantity: 1 }],
        shipping_address: { ...AT_COMPANY, vat_id: null },
      });
      expect(draft.lines[0]).toMatchObject({ tax_rate: 0, tax_category: category });
      const patch = (body: unknown) =>
        call(tt.app, 'PATCH', `/api/admin/invoices/${draft.id}`, { token: ff.owner, body });
      // neither removing the ID from a business invoice nor declaring the buyer a consumer gets past it
      expect((await patch({ buyer: { vat_id: null } })).statusCode).toBe(200);
      for (const body of [{}, { is_business: false }]) {
        await patch(body);
        const res = await call(tt.app, 'POST', `/api/admin/invoices/${draft.id}/finalize`, { token: ff.owner });
        expectProblem(res, 400, 'buyer_data_missing');
        expect(res.data.errors).toContainEqual(expect.objectContaining({ path: '/buyer/vat_id' }));
        const after = await call(tt.app, 'GET', `/api/admin/invoices/${draft.id}`, { token: ff.owner });
        expect(after.data).toMatchObject({ status: 'draft', number: null });
      }
      await patch({ buyer: { vat_id: 'ATU 1234 5678' } });
      const ok = await call(tt.app, 'POST', `/api/admin/invoices/${draft.id}/finalize`, { token: ff.owner });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.data.buyer.vat_id).toBe('ATU12345678');
    },
  );
});
