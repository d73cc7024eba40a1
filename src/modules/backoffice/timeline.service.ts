/**
 * GET /api/admin/orders/:id/timeline: what happened to an order, oldest first, compiled from the
 * records each module keeps (orders and refunds, invoices and credit notes, the accounting sync,
 * webhook events and deliveries, provider events), each read through its owner's exported query.
 * Nothing is stored for the timeline itself.
 */
import type { Static } from '@sinclair/typebox';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, pgDate } from '../../platform/dates.js';
import { notFound } from '../../platform/errors.js';
import { paymentEventsOfOrder } from '../checkout/index.js';
import { financeTimelineFacts } from '../finance/index.js';
import { orderTimelineFacts } from '../orders/index.js';
import { eventsOfOrderingKeys } from '../webhooks/index.js';
import type { TimelineEvent, TimelineKind } from './backoffice.schemas.js';

type Event = Static<typeof TimelineEvent>;
type Ref = NonNullable<Event['ref']>;

const money = (cents: number | string | null) => (cents === null ? null : Number(cents));

export async function orderTimeline(ctx: Ctx, orderId: string): Promise<Event[]> {
  const facts = await orderTimelineFacts(ctx, orderId);
  if (!facts) throw notFound('Order');
  const [finance, webhooks, payments] = await Promise.all([
    financeTimelineFacts(ctx, orderId),
    eventsOfOrderingKeys(ctx, [`order:${orderId}`, `lexware:${orderId}`]),
    paymentEventsOfOrder(ctx, orderId),
  ]);
  const out: (Event & { seq: number })[] = [];
  const add = (
    at: string | Date | null,
    kind: TimelineKind,
    detail: string,
    ref: Ref | null,
    amount: number | null = null,
  ) => {
    if (at === null) return;
    const when = at instanceof Date ? at : pgDate(at);
    out.push({ at: iso(when), kind, detail, ref, amount_cents: amount, seq: out.length });
  };
  const o = facts.order;
  const orderRef: Ref = { type: 'order', id: o.id };
  add(o.created_at, 'created', `Order ${o.number} created`, orderRef, money(o.total_cents));
  add(o.paid_at, 'paid', `Paid${o.payment_provider ? ` (${o.payment_provider})` : ''}`, orderRef, money(o.total_cents));
  add(o.fulfilled_at, 'fulfilled', 'Marked fulfilled', orderRef);
  add(o.cancelled_at, 'cancelled', 'Cancelled', orderRef);

  for (const r of facts.refunds) {
    const ref: Ref = { type: 'refund', id: r.id };
    const amount = money(r.amount_cents);
    const how = r.lines
      ? `${r.lines.reduce((s, l) => s + l.quantity, 0)} unit(s) of ${r.lines.length} line(s)`
      : 'amount';
    add(r.created_at, 'refund_pending', `Refund requested (${how}, ${r.provider}): ${r.reason}`, ref, amount);
    if (r.status === 'succeeded') add(r.updated_at, 'refunded', `Refund succeeded (${r.provider})`, ref, amount);
    if (r.status === 'failed') {
      add(r.updated_at, 'refund_failed', `Refund failed: ${r.failure_reason ?? 'no reason given'}`, ref, amount);
    }
  }

  for (const i of finance.invoices) {
    const ref: Ref = { type: 'invoice', id: i.id };
    add(i.created_at, 'invoice_draft', 'Invoice drafted', ref, money(i.total_cents));
    add(i.finalized_at, 'invoiced', `Invoice ${i.number} finalized`, ref, money(i.total_cents));
    add(i.sent_at, 'email_sent', `Invoice ${i.number} e-mailed${i.sent_to ? ` to ${i.sent_to}` : ''}`, ref);
  }
  for (const c of finance.creditNotes) {
    const ref: Ref = { type: 'credit_note', id: c.id };
    if (c.finalized_at) {
      add(c.finalized_at, 'credit_note', `Credit note ${c.number} finalized`, ref, money(c.total_cents));
    } else {
      add(c.created_at, 'credit_note', 'Credit note drafted', ref, money(c.total_cents));
    }
  }
  for (const s of finance.syncs) {
    const ref: Ref = { type: 'accounting_sync', id: `${orderId}:${s.provider}` };
    if (s.status === 'synced') add(s.synced_at ?? s.updated_at, 'accounting_synced', `Booked in ${s.provider}`, ref);
    else if (s.status === 'failed') {
      add(s.updated_at, 'accounting_failed', `${s.provider} sync failed: ${s.last_error ?? 'unknown error'}`, ref);
    } else if (s.status === 'pending') add(s.updated_at, 'accounting_pending', `${s.provider} sync pending`, ref);
  }

  for (const w of webhooks) {
    if (!w.delivery_id) continue; // emitted while no endpoint was configured
    const ref: Ref = { type: 'webhook_delivery', id: w.delivery_id };
    if (w.status === 'succeeded') add(w.delivered_at ?? w.updated_at, 'webhook_sent', `${w.type} delivered`, ref);
    else if (w.status === 'dead') {
      add(
        w.updated_at,
        'webhook_failed',
        `${w.type} not delivered after ${w.attempts ?? 0} attempts${w.last_error ? `: ${w.last_error}` : ''}`,
        ref,
      );
    } else add(w.created_at, 'webhook_pending', `${w.type} ${w.status} (${w.attempts ?? 0} attempts)`, ref);
  }

  for (const p of payments) {
    add(
      p.received_at,
      'payment_event',
      `${p.provider} ${p.type}: ${p.status}${p.reason ? ` (${p.reason})` : ''}`,
      { type: 'payment_event', id: `${p.provider}:${p.event_id}` },
      money(p.amount_cents),
    );
  }

  // oldest first; what happened at the same instant keeps the order it was added in (created before paid …)
  out.sort((a, b) => a.at.localeCompare(b.at) || a.seq - b.seq);
  return out.map(({ seq: _seq, ...e }) => e);
}
