/**
 * The ledger behind vendor and affiliate money: earnings from real paid orders, commission
 * rules, clawbacks by credit notes (by lines, by amount, in full) and by cancellation, releases,
 * idempotency, and the database's own guards (balanced, append-only).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startApp, type TestApp } from '../../../test/helpers/app.js';
import { systemCtx } from '../../platform/auth/types.js';
import { query, withTx } from '../../platform/db/tx.js';
import { type FinanceShop, finalInvoice, financeShop, paidOrder } from '../finance/finance.fixtures.js';
import { creditOrderEarnings, listEarnings, releaseEarnings, reverseOrderEarnings } from './earnings.js';
import { balanceOf, balances } from './ledger.js';

let t: TestApp;
let f: FinanceShop;
const VENDOR = 'ven_earnings1';
const OTHER_VENDOR = 'ven_earnings2';
let affiliateId = '';

const db = () => t.app.deps.database.db;
const now = () => t.app.deps.clock.now();
/** The context of the finance shop, as a job would have it. */
const ctx = () => systemCtx({ db: db(), clock: t.app.deps.clock, config: t.app.deps.config }, f.shop.shopId, t.app.log);
const post = (url: string, body?: unknown) => call(t.app, 'POST', url, { token: f.owner, body });

beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t);
  const shopId = f.shop.shopId;
  await db().execute(sql`INSERT INTO vendors (id, shop_id, name, email, status) VALUES
      (${VENDOR}, ${shopId}, 'Käserei Alm', 'alm@vendor.test', 'active'),
      (${OTHER_VENDOR}, ${shopId}, 'Verlag', 'verlag@vendor.test', 'active')`);
  // 10 % + 0.50 € per line, in force since an hour ago
  await db().execute(sql`INSERT INTO vendor_commission_rules (id, shop_id, vendor_id, percent, fixed_cents, effective_from)
      VALUES ('vrule_e1', ${shopId}, ${VENDOR}, 10, 50, now() - interval '1 hour')`);
  for (const [product, vendor] of [
    [f.products.course, VENDOR],
    [f.products.cheese, VENDOR],
    [f.products.ebook, OTHER_VENDOR],
  ] as const) {
    const res = await call(t.app, 'PATCH', `/api/products/${product}`, { token: f.owner, body: { vendor_id: vendor } });
    expect(res.statusCode).toBe(200);
  }
  affiliateId = 'aff_earnings1';
  await db().execute(sql`INSERT INTO affiliates (id, shop_id, name, email, code, commission_percent, status)
      VALUES (${affiliateId}, ${shopId}, 'Blog', 'blog@aff.test', 'Partner10', 12.5, 'active')`);
});
afterAll(() => t.close());

const halfUp = (cents: number, percent: number) => Math.floor((cents * percent) / 100 + 0.5);

async function orderLines(orderId: string) {
  const res = await call(t.app, 'GET', `/api/admin/orders/${orderId}`, { token: f.owner });
  return res.data.order.lines as { id: string; product_id: string; net_cents: number; line_total_cents: number }[];
}

/** Every posting of the shop sums to zero, and per transaction too. */
async function assertBalancedLedger() {
  const rows = await query<{ tx: string; total: number | string }>(
    db(),
    sql`SELECT transaction_id AS tx, sum(amount_cents)::bigint AS total FROM ledger_postings
        WHERE shop_id = ${f.shop.shopId} GROUP BY transaction_id HAVING sum(amount_cents) <> 0`,
  );
  expect(rows).toEqual([]);
}

async function earningsOf(orderId: string) {
  const { rows } = await listEarnings(ctx(), 'vendor', { order_id: orderId, limit: 50, offset: 0 });
  const aff = await listEarnings(ctx(), 'affiliate', { order_id: orderId, limit: 50, offset: 0 });
  return { vendor: rows, affiliate: aff.rows };
}

describe('earnings of a paid order', () => {
  let orderId = '';

  it('credits each vendor line minus the commission and the affiliate on the net item value', async () => {
    orderId = await paidOrder(t, f, { affiliate_code: 'PARTNER10' });
    const lines = await orderLines(orderId);
    const { vendor, affiliate } = await earningsOf(orderId);
    expect(vendor).toHaveLength(3);
    for (const l of lines) {
      const e = vendor.find((x) => x.orderLineId === l.id);
      expect(e).toBeDefined();
      if (l.product_id === f.products.ebook) {
        // no rule for this vendor: no commission
        expect(e).toMatchObject({ partnerId: OTHER_VENDOR, commissionCents: 0, amountCents: l.net_cents });
      } else {
        const commission = halfUp(l.net_cents, 10) + 50;
        expect(e).toMatchObject({
          partnerId: VENDOR,
          grossCents: l.line_total_cents,
          netCents: l.net_cents,
          commissionCents: commission,
          amountCents: l.net_cents - commission,
          ratePercent: 10,
          ruleId: 'vrule_e1',
          status: 'pending',
        });
      }
    }
    const itemNet = lines.reduce((s, l) => s + l.net_cents, 0);
    expect(affiliate).toHaveLength(1);
    expect(affiliate[0]).toMatchObject({
      partnerId: affiliateId,
      netCents: itemNet,
      amountCents: halfUp(itemNet, 12.5),
    });

    const b = await balanceOf(ctx(), 'vendor', VENDOR, 'EUR');
    const own = vendor.filter((e) => e.partnerId === VENDOR).reduce((s, e) => s + e.amountCents, 0);
    expect(b).toMatchObject({ pending_cents: own, available_cents: 0, earned_cents: own, owed_cents: own });
    await assertBalancedLedger();
  });

  it('books nothing twice when the payment is processed again', async () => {
    const before = await query<{ n: number }>(db(), sql`SELECT count(*)::int AS n FROM ledger_postings`);
    await withTx(ctx(), (tx) => creditOrderEarnings(tx, orderId, now()));
    const after = await query<{ n: number }>(db(), sql`SELECT count(*)::int AS n FROM ledger_postings`);
    expect(after[0]?.n).toBe(before[0]?.n);
    const { vendor } = await earningsOf(orderId);
    expect(vendor).toHaveLength(3);
  });

  it('a credit note by lines claws back exactly the credited lines; the rest follows at the full credit', async () => {
    const invoice = await finalInvoice(t, f, { affiliate_code: 'partner10' });
    const lines = await orderLines(invoice.order_id);
    const course = lines.find((l) => l.product_id === f.products.course);
    const first = await earningsOf(invoice.order_id);
    const courseEarning = first.vendor.find((e) => e.orderLineId === course?.id);
    const cheese = first.vendor.find((e) => e.orderLineId !== course?.id && e.partnerId === VENDOR);

    const cn = await post(`/api/admin/invoices/${invoice.id}/credit-note`, { lines: [{ position: 1, quantity: 1 }] });
    expect(cn.statusCode).toBe(201);
    // a draft takes nothing back
    expect((await earningsOf(invoice.order_id)).vendor.every((e) => e.reversedCents === 0)).toBe(true);
    expect((await post(`/api/admin/credit-notes/${cn.data.id}/finalize`)).statusCode).toBe(200);

    const second = await earningsOf(invoice.order_id);
    expect(second.vendor.find((e) => e.id === courseEarning?.id)?.reversedCents).toBe(courseEarning?.amountCents);
    expect(second.vendor.find((e) => e.id === cheese?.id)?.reversedCents).toBe(0);
    const itemNet = lines.reduce((s, l) => s + l.net_cents, 0);
    const aff = second.affiliate[0];
    expect(aff?.reversedCents).toBe(Math.round(((aff?.amountCents ?? 0) * (course?.net_cents ?? 0)) / itemNet));

    // release what is left of this order's earnings, then credit the rest: clawed back from available
    const released = await withTx(ctx(), (tx) =>
      releaseEarnings(
        tx,
        'vendor',
        { earningIds: second.vendor.filter((e) => e.id !== courseEarning?.id).map((e) => e.id) },
        now(),
      ),
    );
    expect(released).toHaveLength(2);
    const rest = await post(`/api/admin/invoices/${invoice.id}/credit-note`, {});
    expect(rest.statusCode).toBe(201);
    expect((await post(`/api/admin/credit-notes/${rest.data.id}/finalize`)).statusCode).toBe(200);
    const third = await earningsOf(invoice.order_id);
    for (const e of [...third.vendor, ...third.affiliate]) expect(e.reversedCents).toBe(e.amountCents);
    await assertBalancedLedger();
  });

  it('an amount credit note claws back proportionally; cancelling a paid order reverses the rest', async () => {
    const invoice = await finalInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 2 }] });
    const [earning] = (await earningsOf(invoice.order_id)).vendor;
    const cn = await post(`/api/admin/invoices/${invoice.id}/credit-note`, {
      amount_cents: Math.round(invoice.total_cents / 4),
    });
    expect((await post(`/api/admin/credit-notes/${cn.data.id}/finalize`)).statusCode).toBe(200);
    const [after] = (await earningsOf(invoice.order_id)).vendor;
    const share = Math.round(invoice.total_cents / 4) / invoice.total_cents;
    expect(after?.reversedCents).toBe(Math.round((earning?.amountCents ?? 0) * share));

    const cancel = await post(`/api/admin/orders/${invoice.order_id}/cancel`);
    expect(cancel.statusCode).toBe(200);
    const [cancelled] = (await earningsOf(invoice.order_id)).vendor;
    expect(cancelled?.reversedCents).toBe(earning?.amountCents);
    // running it again changes nothing
    await withTx(ctx(), (tx) => reverseOrderEarnings(tx, invoice.order_id, now()));
    const [again] = (await earningsOf(invoice.order_id)).vendor;
    expect(again?.reversedCents).toBe(earning?.amountCents);
    await assertBalancedLedger();
  });

  it('balances are the sums of the postings, per account, to the cent', async () => {
    const rows = await query<{ partner_id: string; account: string; total: number | string }>(
      db(),
      sql`SELECT partner_id, account, sum(amount_cents)::bigint AS total FROM ledger_postings
          WHERE shop_id = ${f.shop.shopId} AND partner_type = 'vendor' GROUP BY partner_id, account`,
    );
    for (const b of await balances(ctx(), 'vendor')) {
      const sum = (account: string) =>
        Number(rows.find((r) => r.partner_id === b.partner_id && r.account === account)?.total ?? 0);
      expect(b.pending_cents).toBe(sum('pending'));
      expect(b.available_cents).toBe(sum('available'));
      expect(b.earned_cents).toBe(-sum('expense'));
      expect(b.pending_cents + b.available_cents + b.in_payout_cents + b.paid_out_cents).toBe(b.earned_cents);
    }
  });

  it('refunds before the invoice claw back once: the credit notes the invoice gets for them take back nothing more', async () => {
    const orderId = await paidOrder(t, f, { affiliate_code: 'PARTNER10' });
    const total = (await call(t.app, 'GET', `/api/admin/orders/${orderId}`, { token: f.owner })).data.order
      .total_cents as number;
    const clawbacks = async () =>
      Number(
        (
          await query<{ n: number }>(
            db(),
            sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE order_id = ${orderId} AND kind = 'clawback'`,
          )
        )[0]?.n,
      );
    const expectShare = async (refunded: number) => {
      const { vendor, affiliate } = await earningsOf(orderId);
      expect(vendor.length + affiliate.length).toBe(4);
      for (const e of [...vendor, ...affiliate]) {
        expect(e.reversedCents).toBe(Math.round((e.amountCents * refunded) / total));
      }
    };
    // refunded without an invoice: the refund claws back its share itself
    expect(
      (await post(`/api/admin/orders/${orderId}/refunds`, { amount_cents: 2000, reason: 'Teil' })).statusCode,
    ).toBe(201);
    const draft = await post(`/api/admin/orders/${orderId}/invoice`, {});
    // one more while the invoice is a draft: still no credit note, still its own clawback
    expect(
      (await post(`/api/admin/orders/${orderId}/refunds`, { amount_cents: 1000, reason: 'Teil' })).statusCode,
    ).toBe(201);
    await expectShare(3000);
    const booked = await clawbacks();
    expect(booked).toBeGreaterThan(0);
    // the invoice's finalization credits both refunds: not a cent more is clawed back
    const fin = await post(`/api/admin/invoices/${draft.data.id}/finalize`);
    expect(fin.data).toMatchObject({ status: 'partially_credited', credited_cents: 3000 });
    await expectShare(3000);
    expect(await clawbacks()).toBe(booked);
    // a refund after the invoice claws back through its credit note, once
    const late = await post(`/api/admin/orders/${orderId}/refunds`, { amount_cents: 1500, reason: 'Teil' });
    expect(late.data.credit_note_id).toMatch(/^cn_/);
    await expectShare(4500);
    // the rest: everything is back, through the last credit note
    expect((await post(`/api/admin/orders/${orderId}/refunds`, { reason: 'Rest' })).data.credit_note_id).toMatch(
      /^cn_/,
    );
    await expectShare(total);
    expect((await call(t.app, 'GET', `/api/admin/invoices/${draft.data.id}`, { token: f.owner })).data).toMatchObject({
      status: 'credited',
      credited_cents: total,
    });
    const all = await clawbacks();
    // a paid, invoiced order that is cancelled: everything back at the cancellation; its refund's credit note takes nothing more
    const inv = await finalInvoice(t, f, { affiliate_code: 'PARTNER10' });
    expect((await post(`/api/admin/orders/${inv.order_id}/cancel`)).statusCode).toBe(200);
    const cancelled = await earningsOf(inv.order_id);
    for (const e of [...cancelled.vendor, ...cancelled.affiliate]) expect(e.reversedCents).toBe(e.amountCents);
    const count = async () =>
      (
        await query<{ n: number }>(
          db(),
          sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE order_id = ${inv.order_id} AND kind = 'clawback'`,
        )
      )[0]?.n;
    const atCancel = await count();
    expect((await post(`/api/admin/orders/${inv.order_id}/refunds`, { reason: 'Storno' })).data.credit_note_id).toMatch(
      /^cn_/,
    );
    expect(await count()).toBe(atCancel);
    expect(all).toBeGreaterThan(booked);
    await assertBalancedLedger();
  });

  it('an unknown or paused affiliate code earns nothing', async () => {
    await db().execute(sql`UPDATE affiliates SET status = 'paused' WHERE id = ${affiliateId}`);
    const paused = await paidOrder(t, f, { affiliate_code: 'PARTNER10' });
    const unknown = await paidOrder(t, f, { affiliate_code: 'NOBODY' });
    expect((await earningsOf(paused)).affiliate).toHaveLength(0);
    expect((await earningsOf(unknown)).affiliate).toHaveLength(0);
    await db().execute(sql`UPDATE affiliates SET status = 'active' WHERE id = ${affiliateId}`);
  });
});

describe('the ledger guards itself', () => {
  it('refuses an unbalanced transaction at commit', async () => {
    await expect(
      withTx(db(), async (tx) => {
        await tx.execute(sql`INSERT INTO ledger_transactions (id, shop_id, partner_type, partner_id, currency, kind, idem_key, occurred_at)
            VALUES ('led_bad', ${f.shop.shopId}, 'vendor', ${VENDOR}, 'EUR', 'earning', 'bad', now())`);
        await tx.execute(sql`INSERT INTO ledger_postings (id, shop_id, transaction_id, partner_type, partner_id, account, currency, amount_cents, occurred_at)
            VALUES ('led_bad_p1', ${f.shop.shopId}, 'led_bad', 'vendor', ${VENDOR}, 'pending', 'EUR', 100, now())`);
      }),
    ).rejects.toThrow();
    const rows = await query(db(), sql`SELECT id FROM ledger_transactions WHERE id = 'led_bad'`);
    expect(rows).toHaveLength(0);
  });

  it('refuses to change or delete booked entries', async () => {
    await expect(db().execute(sql`UPDATE ledger_postings SET amount_cents = amount_cents + 1`)).rejects.toThrow();
    await expect(db().execute(sql`DELETE FROM ledger_transactions`)).rejects.toThrow();
  });
});
