/** Gapless invoice and credit-note numbers under concurrency, and number formats. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, startApp, type TestApp } from '../../../test/helpers/app.js';
import { systemCtx } from '../../platform/auth/types.js';
import { withTx } from '../../platform/db/tx.js';
import { createOrder, getOrder, lineItemOut } from '../orders/index.js';
import { draftInvoice, type FinanceShop, financeShop } from './finance.fixtures.js';
import { formatProblem, renderNumber } from './numbering.js';

let t: TestApp;
let f: FinanceShop;
beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t);
});
afterAll(() => t.close());

const year = () => t.app.deps.clock.now().toISOString().slice(0, 4);

/** `n` more paid orders like `templateId` (same lines), written the way checkout writes them. */
async function cloneOrders(templateId: string, n: number): Promise<string[]> {
  const { deps } = t.app;
  const ctx = systemCtx({ db: deps.database.db, clock: deps.clock, config: deps.config }, f.shop.shopId, t.app.log);
  const { order: o, lines } = await getOrder(ctx, templateId);
  return withTx(ctx, async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const row = await createOrder(tx, {
        channelId: o.channelId,
        checkoutSessionId: null,
        customerId: null,
        customerEmail: `clone${i}@mail.test`,
        billingAddress: o.billingAddress,
        shippingAddress: o.shippingAddress,
        shippingMethodId: o.shippingMethodId,
        status: 'paid',
        autoConfirm: true,
        currency: o.currency,
        lines: lines.map((l) => ({
          ...lineItemOut(l),
          tax_class: l.taxClass,
          is_digital: l.isDigital,
          vendor_id: l.vendorId,
        })) as never,
        subtotalCents: o.subtotalCents,
        shippingCents: o.shippingCents,
        shippingTaxCents: o.shippingTaxCents,
        taxCents: o.taxCents,
        totalCents: o.totalCents,
        requiresShipping: o.requiresShipping,
        widerrufVerzicht: o.widerrufVerzicht,
        widerrufVerzichtAt: o.widerrufVerzichtAt,
        affiliateCode: null,
        isTest: true,
        paymentProvider: 'test',
        paymentRef: 'test_4242',
        now: t.app.deps.clock.now(),
      });
      ids.push(row.id);
    }
    return ids;
  });
}

describe('numbering', () => {
  it('100 concurrent finalizations give 100 unique, gapless numbers', async () => {
    const first = await draftInvoice(t, f);
    const orderIds = await cloneOrders(first.order_id, 99);
    const drafts = [first.id];
    for (const id of orderIds) {
      const res = await call(t.app, 'POST', `/api/admin/orders/${id}/invoice`, { token: f.owner, body: {} });
      expect(res.statusCode).toBe(201);
      drafts.push(res.data.id);
    }
    const results = await Promise.all(
      drafts.map((id) => call(t.app, 'POST', `/api/admin/invoices/${id}/finalize`, { token: f.owner })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(drafts.map(() => 200));
    const numbers = results.map((r) => r.data.number as string).sort();
    const expected = Array.from({ length: 100 }, (_, i) => `RE-${year()}-${String(i + 1).padStart(5, '0')}`);
    expect(numbers).toEqual(expected);
    // finalizing them again (concurrently) takes no number
    const again = await Promise.all(
      drafts.slice(0, 10).map((id) => call(t.app, 'POST', `/api/admin/invoices/${id}/finalize`, { token: f.owner })),
    );
    for (const r of again) expectProblem(r, 409, 'already_final');
    // 100 concurrent credit notes draw from their own range
    const notes = await Promise.all(
      drafts.map((id) =>
        call(t.app, 'POST', `/api/admin/invoices/${id}/credit-note`, { token: f.owner, body: { amount_cents: 100 } }),
      ),
    );
    const finals = await Promise.all(
      notes.map((n) => call(t.app, 'POST', `/api/admin/credit-notes/${n.data.id}/finalize`, { token: f.owner })),
    );
    expect(finals.map((r) => r.data.number as string).sort()).toEqual(expected.map((n) => n.replace('RE-', 'GS-')));
  }, 120_000); // 100 finalizations at once: about 5 s alone, far longer beside other suites on 2 cores

  it('the format setting decides the next number; the sequence continues', async () => {
    const put = await call(t.app, 'PUT', '/api/admin/settings/company', {
      token: f.owner,
      body: { invoice_number_format: 'R{YY}{MM}-{NNNN}' },
    });
    expect(put.statusCode).toBe(200);
    const draft = await draftInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    const res = await call(t.app, 'POST', `/api/admin/invoices/${draft.id}/finalize`, { token: f.owner });
    const now = t.app.deps.clock.now();
    expect(res.data.number).toBe(`R${year().slice(2)}${res.data.issue_date.slice(5, 7)}-0001`);
    expect(now).toBeTruthy();
    await call(t.app, 'PUT', '/api/admin/settings/company', {
      token: f.owner,
      body: { invoice_number_format: 'RE-{YYYY}-{NNNNN}' },
    });
    const d2 = await draftInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    const r2 = await call(t.app, 'POST', `/api/admin/invoices/${d2.id}/finalize`, { token: f.owner });
    expect(r2.data.number).toBe(`RE-${year()}-00101`);
  });

  it('a format that renders numbers already issued from another counter continues after them, never repeats one', async () => {
    const settings = (body: Record<string, unknown>) =>
      call(t.app, 'PUT', '/api/admin/settings/company', { token: f.owner, body });
    // the year written out: another counter (no year token) than RE-{YYYY}-{NNNNN}, the same numbers
    expect((await settings({ invoice_number_format: `RE-${year()}-{NNNNN}` })).statusCode).toBe(200);
    const draft = await draftInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    const res = await call(t.app, 'POST', `/api/admin/invoices/${draft.id}/finalize`, { token: f.owner });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.number).toBe(`RE-${year()}-00102`);
    // a credit-note format that renders invoice numbers does not repeat one either
    expect((await settings({ credit_note_number_format: 'RE-{YYYY}-{NNNNN}' })).statusCode).toBe(200);
    const note = await call(t.app, 'POST', `/api/admin/invoices/${res.data.id}/credit-note`, { token: f.owner });
    const fin = await call(t.app, 'POST', `/api/admin/credit-notes/${note.data.id}/finalize`, { token: f.owner });
    expect(fin.statusCode, fin.body).toBe(200);
    expect(fin.data.number).toBe(`RE-${year()}-00103`);
    await settings({ invoice_number_format: 'RE-{YYYY}-{NNNNN}', credit_note_number_format: 'GS-{YYYY}-{NNNNN}' });
  });

  it('an invoice finalized after refunds takes its number and one credit-note number per refund, gapless', async () => {
    const get = async (url: string) => (await call(t.app, 'GET', url, { token: f.owner })).data;
    const post = (url: string, body?: unknown) => call(t.app, 'POST', url, { token: f.owner, body });
    const seq = (n: string) => Number(n.split('-').pop());
    const before = await get('/api/admin/credit-notes?limit=1');
    const lastNote = seq(before.credit_notes[0].number);
    const draft = await draftInvoice(t, f);
    for (const amount of [300, 200]) {
      expect(
        (await post(`/api/admin/orders/${draft.order_id}/refunds`, { amount_cents: amount, reason: 'x' })).statusCode,
      ).toBe(201);
    }
    const fin = await post(`/api/admin/invoices/${draft.id}/finalize`);
    expect(fin.statusCode, fin.body).toBe(200);
    expect(fin.data.number).toBe(`RE-${year()}-00104`);
    const notes = (await get(`/api/admin/credit-notes?invoice_id=${draft.id}`)).credit_notes as {
      number: string;
      total_cents: number;
      issue_date: string;
    }[];
    expect(notes.map((n) => [seq(n.number), n.total_cents]).sort()).toEqual([
      [lastNote + 1, 300],
      [lastNote + 2, 200],
    ]);
    for (const n of notes) expect(n.issue_date).toBe(fin.data.issue_date);
  });

  it('finalizations racing refunds: every refund is credited exactly once, by the finalization or by its own credit note', async () => {
    const get = async (url: string) => (await call(t.app, 'GET', url, { token: f.owner })).data;
    const drafts = await Promise.all(
      Array.from({ length: 8 }, () => draftInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] })),
    );
    await Promise.all(
      drafts.flatMap((d) => [
        call(t.app, 'POST', `/api/admin/invoices/${d.id}/finalize`, { token: f.owner }),
        call(t.app, 'POST', `/api/admin/orders/${d.order_id}/refunds`, {
          token: f.owner,
          body: { amount_cents: 1000, reason: 'x' },
        }),
      ]),
    );
    for (const d of drafts) {
      const inv = await get(`/api/admin/invoices/${d.id}`);
      expect(inv).toMatchObject({ status: 'partially_credited', credited_cents: 1000 });
      const notes = (await get(`/api/admin/credit-notes?invoice_id=${d.id}`)).credit_notes;
      expect(notes).toHaveLength(1);
      const [refund] = (await get(`/api/admin/orders/${d.order_id}/refunds`)).refunds;
      expect(refund).toMatchObject({ status: 'succeeded', credit_note_id: notes[0].id });
    }
  });

  it('validates and renders formats', () => {
    expect(formatProblem('RE-{YYYY}-{NNNNN}')).toBeNull();
    expect(formatProblem('INV{NNNNNN}')).toBeNull();
    expect(formatProblem('RE-{YYYY}')).toContain('sequence');
    expect(formatProblem('RE-{NN}-{NNN}')).toContain('exactly one');
    expect(formatProblem('RE {NNN}')).toContain('may contain');
    expect(formatProblem('RE-{MM}-{NNN}')).toContain('year');
    expect(renderNumber('RE-{YYYY}-{NNNNN}', '2026-03-04', 42)).toBe('RE-2026-00042');
    expect(renderNumber('{YY}{MM}/{NNN}', '2026-03-04', 1234)).toBe('2603/1234');
  });
});
