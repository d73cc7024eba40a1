/** Refunds with the test provider (docs/payments.md): amounts, states, credit notes, clawback, credentials, idempotency. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  employeeToken,
  expectProblem,
  STORE_ORIGIN,
  shopCtx,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { paymentProviderFor } from '../../adapters/payment/index.js';
import { query, withTx } from '../../platform/db/tx.js';
import { applyPaymentEvent } from '../checkout/payment-webhook.js';
import { BILLING, type FinanceShop, finalInvoice, financeShop, paidOrder } from '../finance/finance.fixtures.js';
import { reverseRefundedEarnings } from '../partners/earnings.js';
import { advance, expectLedgerMatches, newVendor, vendorProduct } from '../partners/vendors.fixtures.js';
import { claimRefund, RESUME_REFUND_JOB } from './refunds.service.js';

let t: TestApp;
let f: FinanceShop;

beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t);
});
afterAll(() => t.close());

const refund = (orderId: string, body: unknown, opts: { token?: string; key?: string } = {}) =>
  call(t.app, 'POST', `/api/admin/orders/${orderId}/refunds`, {
    token: opts.token ?? f.owner,
    body,
    ...(opts.key ? { headers: { 'idempotency-key': opts.key } } : {}),
  });
const order = async (id: string) =>
  (await call(t.app, 'GET', `/api/admin/orders/${id}`, { token: f.owner })).data.order as {
    status: string;
    total_cents: number;
  };
const refundsOf = async (id: string) =>
  (await call(t.app, 'GET', `/api/admin/orders/${id}/refunds`, { token: f.owner })).data.refunds as {
    id: string;
    amount_cents: number;
    status: string;
    credit_note_id: string | null;
  }[];
const refundedEvents = async (orderId: string) =>
  query<{ data: Record<string, unknown> }>(
    t.app.deps.database.db,
    sql`SELECT data FROM webhook_events WHERE type = 'order.refunded' AND data->>'order_id' = ${orderId}
        ORDER BY created_at, id`,
  );

describe('refunds', () => {
  it('refunds everything by default: order refunded, credit note finalized for the amount, order.refunded sent', async () => {
    const inv = await finalInvoice(t, f);
    const before = await order(inv.order_id);
    const res = await refund(inv.order_id, { reason: 'Kunde hat storniert' });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({
      id: expect.stringMatching(/^ref_/),
      order_id: inv.order_id,
      amount_cents: before.total_cents,
      currency: 'EUR',
      status: 'succeeded',
      reason: 'Kunde hat storniert',
      credit_note_id: expect.stringMatching(/^cn_/),
    });
    expect((await order(inv.order_id)).status).toBe('refunded');
    const cn = await call(t.app, 'GET', `/api/admin/credit-notes/${res.data.credit_note_id}`, { token: f.owner });
    expect(cn.data).toMatchObject({
      status: 'final',
      invoice_id: inv.id,
      total_cents: before.total_cents,
      number: expect.stringMatching(/^GS-/),
    });
    const invoice = await call(t.app, 'GET', `/api/admin/invoices/${inv.id}`, { token: f.owner });
    expect(invoice.data.status).toBe('credited');
    const events = await refundedEvents(inv.order_id);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({
      refund_id: res.data.id,
      amount_cents: before.total_cents,
      refunded_cents: before.total_cents,
      status: 'refunded',
      credit_note_id: res.data.credit_note_id,
    });
    // nothing is left
    expectProblem(await refund(inv.order_id, { reason: 'noch mal' }), 409, 'refund_exceeds_paid');
    expectProblem(await refund(inv.order_id, { amount_cents: 1, reason: 'noch mal' }), 409, 'refund_exceeds_paid');
    expect(await refundsOf(inv.order_id)).toHaveLength(1);
  });

  it('two partial refunds up to the total; one cent more is 409 refund_exceeds_paid', async () => {
    const inv = await finalInvoice(t, f);
    const total = (await order(inv.order_id)).total_cents;
    const first = await refund(inv.order_id, { amount_cents: 1000, reason: 'Teil 1' });
    expect(first.statusCode).toBe(201);
    expect((await order(inv.order_id)).status).toBe('partially_refunded');
    const over = await refund(inv.order_id, { amount_cents: total - 1000 + 1, reason: 'zu viel' });
    expectProblem(over, 409, 'refund_exceeds_paid');
    expect(over.data.errors).toEqual([{ path: '/body/amount_cents', message: `at most ${total - 1000}` }]);
    const second = await refund(inv.order_id, { amount_cents: total - 1000, reason: 'Rest' });
    expect(second.statusCode).toBe(201);
    expect((await order(inv.order_id)).status).toBe('refunded');
    expect((await refundsOf(inv.order_id)).map((r) => [r.amount_cents, r.status])).toEqual([
      [1000, 'succeeded'],
      [total - 1000, 'succeeded'],
    ]);
    const notes = await query<{ total_cents: number | string; status: string }>(
      t.app.deps.database.db,
      sql`SELECT total_cents, status FROM credit_notes WHERE invoice_id = ${inv.id} ORDER BY created_at`,
    );
    expect(notes.map((n) => [Number(n.total_cents), n.status])).toEqual([
      [1000, 'final'],
      [total - 1000, 'final'],
    ]);
    expect((await refundedEvents(inv.order_id)).map((e) => e.data.status)).toEqual(['partially_refunded', 'refunded']);
  });

  it('an invoice already credited by hand: the refund credits only what is left, never fails after the money moved', async () => {
    const inv = await finalInvoice(t, f);
    const total = (await order(inv.order_id)).total_cents;
    // the merchant credited part of the invoice (a draft counts too), then refunds the whole order
    const manual = await call(t.app, 'POST', `/api/admin/invoices/${inv.id}/credit-note`, {
      token: f.owner,
      body: { amount_cents: 1000, reason: 'Gutschrift von Hand' },
    });
    expect(manual.statusCode, manual.body).toBe(201);
    const res = await refund(inv.order_id, { reason: 'Alles zurück' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.data).toMatchObject({ status: 'succeeded', amount_cents: total, credit_note_id: expect.any(String) });
    expect((await order(inv.order_id)).status).toBe('refunded');
    const notes = await query<{ total_cents: number | string }>(
      t.app.deps.database.db,
      sql`SELECT total_cents FROM credit_notes WHERE invoice_id = ${inv.id} ORDER BY created_at, id`,
    );
    expect(notes.map((n) => Number(n.total_cents))).toEqual([1000, total - 1000]);
    expect(await refundedEvents(inv.order_id)).toHaveLength(1);

    // an invoice covered entirely by credit notes: the refund needs none
    const inv2 = await finalInvoice(t, f);
    await call(t.app, 'POST', `/api/admin/invoices/${inv2.id}/credit-note`, {
      token: f.owner,
      body: { reason: 'alles von Hand' },
    });
    const res2 = await refund(inv2.order_id, { amount_cents: 500, reason: 'Teil' });
    expect(res2.statusCode, res2.body).toBe(201);
    expect(res2.data).toMatchObject({ status: 'succeeded', credit_note_id: null });
  });

  it('an order without an invoice is refunded without a credit note', async () => {
    const orderId = await paidOrder(t, f);
    const res = await refund(orderId, { amount_cents: 500, reason: 'Kulanz' });
    expect(res.statusCode).toBe(201);
    expect(res.data.credit_note_id).toBeNull();
    expect((await order(orderId)).status).toBe('partially_refunded');
  });

  it('a refund made before the invoice gets its credit note when the invoice is finalized, and no second one', async () => {
    const orderId = await paidOrder(t, f);
    const total = (await order(orderId)).total_cents;
    const first = await refund(orderId, { amount_cents: 700, reason: 'Kulanz' });
    expect(first.data.credit_note_id).toBeNull();
    const draft = await call(t.app, 'POST', `/api/admin/orders/${orderId}/invoice`, { token: f.owner, body: {} });
    expect(draft.statusCode, draft.body).toBe(201);
    const fin = await call(t.app, 'POST', `/api/admin/invoices/${draft.data.id}/finalize`, { token: f.owner });
    expect(fin.data).toMatchObject({ status: 'partially_credited', credited_cents: 700 });
    const [linked] = await refundsOf(orderId);
    expect(linked).toMatchObject({ id: first.data.id, credit_note_id: expect.stringMatching(/^cn_/) });
    // the rest: its own credit note for its amount, the invoice credited in full, one event per refund
    const rest = await refund(orderId, { reason: 'Rest' });
    expect(rest.data).toMatchObject({ amount_cents: total - 700, credit_note_id: expect.stringMatching(/^cn_/) });
    expect(rest.data.credit_note_id).not.toBe(linked?.credit_note_id);
    const inv = await call(t.app, 'GET', `/api/admin/invoices/${draft.data.id}`, { token: f.owner });
    expect(inv.data).toMatchObject({ status: 'credited', credited_cents: total });
    expect((await order(orderId)).status).toBe('refunded');
    expect((await refundedEvents(orderId)).map((e) => e.data.refunded_cents)).toEqual([700, total]);
  });

  it('a paid order that was cancelled can still give its money back; it stays cancelled', async () => {
    const orderId = await paidOrder(t, f);
    const total = (await order(orderId)).total_cents;
    expect(
      (await call(t.app, 'POST', `/api/admin/orders/${orderId}/cancel`, { token: f.owner, body: {} })).statusCode,
    ).toBe(200);
    const first = await refund(orderId, { amount_cents: 500, reason: 'Teil' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.data).toMatchObject({ status: 'succeeded', amount_cents: 500 });
    const rest = await refund(orderId, { reason: 'Rest' });
    expect(rest.statusCode).toBe(201);
    expect(rest.data.amount_cents).toBe(total - 500);
    expectProblem(await refund(orderId, { amount_cents: 1, reason: 'zu viel' }), 409, 'refund_exceeds_paid');
    expect((await order(orderId)).status).toBe('cancelled');
    expect((await refundedEvents(orderId)).map((e) => [e.data.refunded_cents, e.data.status])).toEqual([
      [500, 'cancelled'],
      [total, 'cancelled'],
    ]);
  });

  it('an order that was never paid is 409 invalid_state and changes nothing', async () => {
    await call(t.app, 'PATCH', `/api/admin/channels/${f.channel}`, {
      token: f.owner,
      body: { allow_unpaid_orders: true },
    });
    const direct = await call(t.app, 'POST', '/api/store/checkout-sessions', {
      token: f.shop.publishableKey,
      headers: { origin: STORE_ORIGIN },
      body: {
        items: [{ product_id: f.products.course, quantity: 1 }],
        customer: { email: 'unpaid@mail.test', billing_address: BILLING },
        flow: 'direct',
        widerruf_verzicht: true,
        return_url: `${STORE_ORIGIN}/danke`,
      },
    });
    await call(t.app, 'PATCH', `/api/admin/channels/${f.channel}`, {
      token: f.owner,
      body: { allow_unpaid_orders: false },
    });
    expect(direct.statusCode).toBe(201);
    const orderId = direct.data.order_id;
    expectProblem(await refund(orderId, { reason: 'nie bezahlt' }), 409, 'invalid_state');
    expect(await refundsOf(orderId)).toEqual([]);
    expect((await order(orderId)).status).toBe('pending_payment');
    // cancelled without ever being paid: still nothing to refund
    await call(t.app, 'POST', `/api/admin/orders/${orderId}/cancel`, { token: f.owner, body: {} });
    expect((await order(orderId)).status).toBe('cancelled');
    expectProblem(await refund(orderId, { reason: 'nie bezahlt' }), 409, 'invalid_state');
    expect(await refundsOf(orderId)).toEqual([]);
  });

  it('validates the body, refuses every API token and other roles, 404 for an unknown order', async () => {
    const orderId = await paidOrder(t, f);
    for (const body of [
      {},
      { reason: '' },
      { reason: 'x', amount_cents: 0 },
      { reason: 'x', amount_cents: 1.5 },
      { reason: 'x', extra: 1 },
    ]) {
      expectProblem(await refund(orderId, body), 400, 'validation_failed');
    }
    const token = await apiToken(t.app, f.shop, ['catalog:read', 'catalog:write', 'finance:read']);
    expectProblem(await refund(orderId, { reason: 'x' }, { token }), 403, 'token_blocked');
    const viewer = await employeeToken(t.app, f.shop, 'viewer');
    expectProblem(await refund(orderId, { reason: 'x' }, { token: viewer }), 403, 'role_denied');
    expect(
      (await call(t.app, 'POST', `/api/admin/orders/${orderId}/refunds`, { body: { reason: 'x' } })).statusCode,
    ).toBe(401);
    expectProblem(await refund('ord_unknown', { reason: 'x' }), 404, 'not_found');
    expect(await refundsOf(orderId)).toEqual([]);
    expect((await order(orderId)).status).toBe('paid');
  });

  it('honours Idempotency-Key: a replay returns the first refund and moves no money again', async () => {
    const orderId = await paidOrder(t, f);
    const first = await refund(orderId, { amount_cents: 700, reason: 'Kratzer' }, { key: 'refund-key-1' });
    const again = await refund(orderId, { amount_cents: 700, reason: 'Kratzer' }, { key: 'refund-key-1' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.data.id).toBe(first.data.id);
    expectProblem(
      await refund(orderId, { amount_cents: 800, reason: 'Kratzer' }, { key: 'refund-key-1' }),
      409,
      'idempotency_key_reused',
    );
    expect((await refundsOf(orderId)).map((r) => r.amount_cents)).toEqual([700]);
  });

  it('claws back the vendor earnings of a refunded order through the credit note', async () => {
    const v = await newVendor(t, f, 'Rueckgabe');
    const product = await vendorProduct(t, f, v.id, { base_price_cents: 10_000 });
    const inv = await finalInvoice(t, f, { items: [{ product_id: product, quantity: 1 }] });
    const earned = async () =>
      (await call(t.app, 'GET', `/api/admin/vendors/${v.id}`, { token: f.owner })).data.balances[0]?.earned_cents ?? 0;
    const before = await earned();
    expect(before).toBeGreaterThan(0);
    const half = await refund(inv.order_id, { amount_cents: 5000, reason: 'halb' });
    expect(half.statusCode).toBe(201);
    // the credit note takes back the credited share (rounded by the ledger)
    expect(Math.abs((await earned()) - before / 2)).toBeLessThanOrEqual(1);
    await refund(inv.order_id, { reason: 'Rest' });
    expect(await earned()).toBe(0);
  });

  it('partial refunds without an invoice claw back the refunded share of each earning, exactly the whole at the end', async () => {
    const a = await newVendor(t, f, 'Ohne Rechnung A');
    const b = await newVendor(t, f, 'Ohne Rechnung B');
    const pa = await vendorProduct(t, f, a.id, { base_price_cents: 999 });
    const pb = await vendorProduct(t, f, b.id, { base_price_cents: 1234 });
    const orderId = await paidOrder(t, f, {
      items: [
        { product_id: pa, quantity: 1 },
        { product_id: pb, quantity: 1 },
      ],
    });
    const total = (await order(orderId)).total_cents;
    const earned = async (vendorId: string) =>
      (await call(t.app, 'GET', `/api/admin/vendors/${vendorId}`, { token: f.owner })).data.balances[0]?.earned_cents ??
      0;
    const ea = await earned(a.id);
    const eb = await earned(b.id);
    expect(ea).toBeGreaterThan(0);
    expect(eb).toBeGreaterThan(0);
    const clawbacks = () =>
      query<{ n: number }>(
        t.app.deps.database.db,
        sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE order_id = ${orderId} AND kind = 'clawback'`,
      );
    let refunded = 0;
    for (const amount of [333, 1000, 1]) {
      const res = await refund(orderId, { amount_cents: amount, reason: `Teil ${amount}` });
      expect(res.statusCode).toBe(201);
      expect(res.data.credit_note_id).toBeNull();
      refunded += amount;
      expect((await order(orderId)).status).toBe('partially_refunded');
      // cumulative target round(earning × refunded ÷ paid): no cent lost or doubled on the way
      expect(await earned(a.id)).toBe(ea - Math.round((ea * refunded) / total));
      expect(await earned(b.id)).toBe(eb - Math.round((eb * refunded) / total));
      // settling the same refund again (a duplicate confirmation) books nothing more
      const n = (await clawbacks())[0]?.n;
      await withTx(t.app.deps.database.db, async (tx) =>
        reverseRefundedEarnings({ db: tx, shopId: f.shop.shopId }, orderId, res.data.id, new Date()),
      );
      expect((await clawbacks())[0]?.n).toBe(n);
      expect(await earned(a.id)).toBe(ea - Math.round((ea * refunded) / total));
    }
    const rest = await refund(orderId, { reason: 'Rest' });
    expect(rest.data.amount_cents).toBe(total - refunded);
    expect((await order(orderId)).status).toBe('refunded');
    expect(await earned(a.id)).toBe(0);
    expect(await earned(b.id)).toBe(0);
    const sums = await query<{ earning_id: string; clawed: number | string; amount: number | string }>(
      t.app.deps.database.db,
      sql`SELECT t.earning_id, sum(p.amount_cents)::bigint AS clawed, max(e.amount_cents) AS amount
          FROM ledger_transactions t
          JOIN ledger_postings p ON p.shop_id = t.shop_id AND p.transaction_id = t.id AND p.account = 'expense'
          JOIN partner_earnings e ON e.shop_id = t.shop_id AND e.id = t.earning_id
          WHERE t.order_id = ${orderId} AND t.kind = 'clawback' GROUP BY t.earning_id`,
    );
    expect(sums).toHaveLength(2);
    for (const s of sums) expect(Number(s.clawed)).toBe(Number(s.amount));
    await expectLedgerMatches(t, f, a.id);
    await expectLedgerMatches(t, f, b.id);
  });

  it('a refund of an invoiced order claws back only through its credit note, never twice', async () => {
    const v = await newVendor(t, f, 'Einmal');
    const product = await vendorProduct(t, f, v.id, { base_price_cents: 7777 });
    const inv = await finalInvoice(t, f, { items: [{ product_id: product, quantity: 1 }] });
    const res = await refund(inv.order_id, { amount_cents: 2000, reason: 'Teil' });
    expect(res.data.credit_note_id).toMatch(/^cn_/);
    const rows = await query<{ credit_note_id: string | null; memo: string | null }>(
      t.app.deps.database.db,
      sql`SELECT credit_note_id, memo FROM ledger_transactions WHERE order_id = ${inv.order_id} AND kind = 'clawback'`,
    );
    expect(rows).toEqual([{ credit_note_id: res.data.credit_note_id, memo: 'credit note' }]);
    await refund(inv.order_id, { reason: 'Rest' });
    const detail = await call(t.app, 'GET', `/api/admin/vendors/${v.id}`, { token: f.owner });
    expect(detail.data.balances[0]?.earned_cents).toBe(0);
    await expectLedgerMatches(t, f, v.id);
  });
});

describe('a refund whose request died between its claim and its outcome', () => {
  /** What a request leaves behind when its process dies after the claim, before the provider answered. */
  const claimLeftBehind = async (orderId: string, amountCents: number, reason: string) =>
    (
      await claimRefund(shopCtx(t.app, f.shop.shopId), paymentProviderFor(t.config), orderId, {
        amount_cents: amountCents,
        reason,
      })
    ).refund.id;

  it('is finished by its job (the same idempotent provider call), once', async () => {
    const inv = await finalInvoice(t, f);
    const total = (await order(inv.order_id)).total_cents;
    const refundId = await claimLeftBehind(inv.order_id, 1500, 'Abgebrochen');
    // the pending claim counts against what is left
    expectProblem(
      await refund(inv.order_id, { amount_cents: total - 1000, reason: 'zu viel' }),
      409,
      'refund_exceeds_paid',
    );
    await advance(t, 60);
    expect((await refundsOf(inv.order_id)).find((r) => r.id === refundId)?.status).toBe('pending');

    await advance(t, 15 * 60);
    const [finished] = (await refundsOf(inv.order_id)).filter((r) => r.id === refundId);
    expect(finished).toMatchObject({ status: 'succeeded', amount_cents: 1500 });
    expect((await order(inv.order_id)).status).toBe('partially_refunded');
    const events = await refundedEvents(inv.order_id);
    expect(events.map((e) => e.data.refund_id)).toEqual([refundId]);
    expect(events[0]?.data.credit_note_id).toMatch(/^cn_/);

    // the rest can be refunded as usual; the job ran once and nothing runs it again
    const rest = await refund(inv.order_id, { reason: 'Rest' });
    expect(rest.data).toMatchObject({ status: 'succeeded', amount_cents: total - 1500 });
    await advance(t, 16 * 60);
    expect((await refundedEvents(inv.order_id)).map((e) => e.data.refund_id)).toEqual([refundId, rest.data.id]);
    expect((await order(inv.order_id)).status).toBe('refunded');
  });

  it('a retry with the Idempotency-Key of the request that died finishes that refund, never a second one', async () => {
    const inv = await finalInvoice(t, f);
    const principal = `admin:${f.shop.ownerId}`;
    const claimed = (
      await claimRefund(
        shopCtx(t.app, f.shop.shopId),
        paymentProviderFor(t.config),
        inv.order_id,
        { amount_cents: 1500, reason: 'Abgebrochen' },
        `${principal}|retry-1`,
      )
    ).refund.id;
    // the process died before the provider answered and before the response was stored: the
    // client retries with its key (the key's abandoned record has been taken over)
    const retry = await refund(inv.order_id, { amount_cents: 1500, reason: 'Abgebrochen' }, { key: 'retry-1' });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.data).toMatchObject({ id: claimed, status: 'succeeded', amount_cents: 1500 });
    expect(await refundsOf(inv.order_id)).toHaveLength(1);
    expect(
      (await refund(inv.order_id, { amount_cents: 1500, reason: 'Abgebrochen' }, { key: 'retry-1' })).data.id,
    ).toBe(claimed);

    // the same key with another amount claims nothing; the claim left behind is finished by its job
    const other = (
      await claimRefund(
        shopCtx(t.app, f.shop.shopId),
        paymentProviderFor(t.config),
        inv.order_id,
        { amount_cents: 700, reason: 'Zweiter' },
        `${principal}|retry-2`,
      )
    ).refund.id;
    expectProblem(
      await refund(inv.order_id, { amount_cents: 800, reason: 'Zweiter' }, { key: 'retry-2' }),
      409,
      'idempotency_key_reused',
    );
    await advance(t, 16 * 60);
    expect((await refundsOf(inv.order_id)).map((r) => [r.id, r.status, r.amount_cents])).toEqual([
      [claimed, 'succeeded', 1500],
      [other, 'succeeded', 700],
    ]);
    expect((await refundedEvents(inv.order_id)).map((e) => e.data.refund_id)).toEqual([claimed, other]);
  });

  it('is made once when its job comes later than the provider replays requests: the provider is asked first', async () => {
    const inv = await finalInvoice(t, f);
    const refundId = await claimLeftBehind(inv.order_id, 700, 'Spät');
    // the worker was down for a day: the job runs only now; the provider has no refund of that id
    // (asked by findRefund, which works at any age), so it is made now, once
    await advance(t, 25 * 3600);
    expect((await refundsOf(inv.order_id)).find((r) => r.id === refundId)?.status).toBe('succeeded');
    expect((await refundedEvents(inv.order_id)).map((e) => e.data.refund_id)).toEqual([refundId]);
  });

  it('the job of a refund whose request finished changes nothing', async () => {
    const inv = await finalInvoice(t, f);
    const res = await refund(inv.order_id, { amount_cents: 1000, reason: 'Teil' });
    expect(res.data.status).toBe('succeeded');
    const jobs = () =>
      query<{ status: string }>(
        t.app.deps.database.db,
        sql`SELECT status FROM jobs WHERE type = ${RESUME_REFUND_JOB} AND payload->>'refund_id' = ${res.data.id}`,
      );
    expect(await jobs()).toEqual([{ status: 'queued' }]);
    await advance(t, 16 * 60);
    expect(await jobs()).toEqual([{ status: 'done' }]);
    expect(await refundedEvents(inv.order_id)).toHaveLength(1);
    expect(await refundsOf(inv.order_id)).toEqual([expect.objectContaining({ id: res.data.id, status: 'succeeded' })]);
  });
});

describe('a refund that fails at the provider after it succeeded', () => {
  let n = 0;
  /** The provider's `refund.failed` for our refund (Stripe: `refund.updated` with status failed), as normalized. */
  const providerFails = (refundId: string, eventId = `evt_refund_fails_${++n}`) =>
    applyPaymentEvent(
      t.app.deps.database.db,
      {
        id: eventId,
        type: 'refund.updated',
        kind: 'refund.failed',
        refund: {
          ref: `re_${refundId}`,
          paymentRef: null,
          amountCents: 0,
          refundId,
          failureReason: 'expired_or_canceled_card',
        },
      },
      { provider: paymentProviderFor(t.config), now: new Date(), deps: t.app.deps, log: t.app.log },
    );
  const failedEvents = async (orderId: string) =>
    query<{ data: Record<string, unknown> }>(
      t.app.deps.database.db,
      sql`SELECT data FROM webhook_events WHERE type = 'order.refund_failed' AND data->>'order_id' = ${orderId}`,
    );
  const earned = async (vendorId: string) =>
    (await call(t.app, 'GET', `/api/admin/vendors/${vendorId}`, { token: f.owner })).data.balances[0]?.earned_cents ??
    0;

  it('is failed, the order paid again, the clawback restored once, order.refund_failed sent once', async () => {
    const v = await newVendor(t, f, 'Karte geschlossen');
    const product = await vendorProduct(t, f, v.id, { base_price_cents: 4321 });
    const orderId = await paidOrder(t, f, { items: [{ product_id: product, quantity: 1 }] });
    const total = (await order(orderId)).total_cents;
    const before = await earned(v.id);
    expect(before).toBeGreaterThan(0);
    const res = await refund(orderId, { reason: 'Rückgabe' });
    expect(res.data).toMatchObject({ status: 'succeeded', credit_note_id: null });
    expect((await order(orderId)).status).toBe('refunded');
    expect(await earned(v.id)).toBe(0);

    const first = await providerFails(res.data.id);
    expect(first.outcome).toMatchObject({ status: 'processed', reason: 'refund_failed_after_success' });
    expect((await refundsOf(orderId)).map((r) => [r.id, r.status])).toEqual([[res.data.id, 'failed']]);
    const [row] = await query<{ failure_reason: string }>(
      t.app.deps.database.db,
      sql`SELECT failure_reason FROM refunds WHERE id = ${res.data.id}`,
    );
    expect(row?.failure_reason).toContain('expired_or_canceled_card');
    expect((await order(orderId)).status).toBe('paid');
    expect(await earned(v.id)).toBe(before);
    await expectLedgerMatches(t, f, v.id);
    expect((await failedEvents(orderId)).map((e) => e.data)).toEqual([
      expect.objectContaining({
        refund_id: res.data.id,
        amount_cents: total,
        refunded_cents: 0,
        status: 'paid',
        failure_reason: expect.stringContaining('expired_or_canceled_card'),
      }),
    ]);

    // a second report (another event id) and a redelivery change nothing
    expect((await providerFails(res.data.id)).outcome).toMatchObject({
      status: 'ignored',
      reason: 'refund_already_failed',
    });
    expect((await providerFails(res.data.id, `evt_refund_fails_${n}`)).duplicate).toBe(true);
    expect(await earned(v.id)).toBe(before);
    expect(await failedEvents(orderId)).toHaveLength(1);

    // the whole amount can be refunded again, and is clawed back again
    const again = await refund(orderId, { reason: 'nochmal' });
    expect(again.data).toMatchObject({ status: 'succeeded', amount_cents: total });
    expect((await order(orderId)).status).toBe('refunded');
    expect(await earned(v.id)).toBe(0);
    await expectLedgerMatches(t, f, v.id);
  });

  it('of an invoiced order: its credit note stays final, the order is partially refunded by what remains, the earnings follow', async () => {
    const v = await newVendor(t, f, 'Gutschrift bleibt');
    const product = await vendorProduct(t, f, v.id, { base_price_cents: 10_000 });
    const inv = await finalInvoice(t, f, { items: [{ product_id: product, quantity: 1 }] });
    const before = await earned(v.id);
    const a = await refund(inv.order_id, { amount_cents: 2000, reason: 'Teil A' });
    const b = await refund(inv.order_id, { amount_cents: 3000, reason: 'Teil B' });
    expect(b.data.credit_note_id).toMatch(/^cn_/);
    const afterBoth = await earned(v.id);
    expect(afterBoth).toBeLessThan(before);

    expect((await providerFails(b.data.id)).outcome).toMatchObject({ reason: 'refund_failed_after_success' });
    expect((await refundsOf(inv.order_id)).map((r) => [r.id, r.status, r.credit_note_id])).toEqual([
      [a.data.id, 'succeeded', a.data.credit_note_id],
      [b.data.id, 'failed', b.data.credit_note_id],
    ]);
    expect((await order(inv.order_id)).status).toBe('partially_refunded');
    const cn = await call(t.app, 'GET', `/api/admin/credit-notes/${b.data.credit_note_id}`, { token: f.owner });
    expect(cn.data).toMatchObject({ status: 'final', total_cents: 3000 });
    // what remains clawed back is refund A's share
    expect(Math.abs((await earned(v.id)) - Math.round(before * 0.8))).toBeLessThanOrEqual(1);
    await expectLedgerMatches(t, f, v.id);

    // A fails too: nothing stays clawed back, the order is paid again
    await providerFails(a.data.id);
    expect((await order(inv.order_id)).status).toBe('paid');
    expect(await earned(v.id)).toBe(before);
    await expectLedgerMatches(t, f, v.id);
  });

  it('of a cancelled order: the order stays cancelled and its earnings stay clawed back', async () => {
    const v = await newVendor(t, f, 'Storniert');
    const product = await vendorProduct(t, f, v.id, { base_price_cents: 2500 });
    const orderId = await paidOrder(t, f, { items: [{ product_id: product, quantity: 1 }] });
    expect(
      (await call(t.app, 'POST', `/api/admin/orders/${orderId}/cancel`, { token: f.owner, body: {} })).statusCode,
    ).toBe(200);
    const res = await refund(orderId, { amount_cents: 1000, reason: 'Teil' });
    expect(res.data.status).toBe('succeeded');
    expect(await earned(v.id)).toBe(0);
    await providerFails(res.data.id);
    expect((await order(orderId)).status).toBe('cancelled');
    expect((await refundsOf(orderId))[0]?.status).toBe('failed');
    expect(await earned(v.id)).toBe(0);
    expect((await failedEvents(orderId))[0]?.data).toMatchObject({ status: 'cancelled', refunded_cents: 0 });
  });
});
