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
type Facts = NonNullable<Event['facts']>;

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
    facts: Facts = {},
  ) => {
    if (at === null) return;
    const when = at instanceof Date ? at : pgDate(at);
    // only the facts there are (null and undefined left out)
    const present = Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== null && v !== undefined));
    out.push({ at: iso(when), kind, detail, facts: present, ref, amount_cents: amount, seq: out.length });
  };
  const o = facts.order;
  const orderRef: Ref = { type: 'order', id: o.id };
  add(o.created_at, 'created', `Order ${o.number} created`, orderRef, money(o.total_cents), { number: o.number });
  add(
    o.paid_at,
    'paid',
    `Paid${o.payment_provider ? ` (${o.payment_provider})` : ''}`,
    orderRef,
    money(o.total_cents),
    {
      provider: o.payment_provider ?? undefined,
    },
  );
  add(o.fulfilled_at, 'fulfilled', 'Marked fulfilled', orderRef);
  add(o.cancelled_at, 'cancelled', 'Cancelled', orderRef);

  for (const r of facts.refunds) {
    const ref: Ref = { type: 'refund', id: r.id };
    const amount = money(r.amount_cents);
    const units = r.lines ? r.lines.reduce((s, l) => s + l.quantity, 0) : undefined;
    const how = r.lines ? `${units} unit(s) of ${r.lines.length} line(s)` : 'amount';
    add(r.created_at, 'refund_pending', `Refund requested (${how}, ${r.provider}): ${r.reason}`, ref, amount, {
      provider: r.provider,
      reason: r.reason,
      units,
      lines: r.lines?.length,
    });
    if (r.status === 'succeeded') {
      add(r.updated_at, 'refunded', `Refund succeeded (${r.provider})`, ref, amount, { provider: r.provider });
    }
    if (r.status === 'failed') {
      add(r.updated_at, 'refund_failed', `Refund failed: ${r.failure_reason ?? 'no reason given'}`, ref, amount, {
        provider: r.provider,
        error: r.failure_reason ?? undefined,
      });
    }
  }

  for (const i of finance.invoices) {
    const ref: Ref = { type: 'invoice', id: i.id };
    add(i.created_at, 'invoice_draft', 'Invoice drafted', ref, money(i.total_cents));
    const number = i.number ?? undefined;
    add(i.finalized_at, 'invoiced', `Invoice ${i.number} finalized`, ref, money(i.total_cents), { number });
    add(i.sent_at, 'email_sent', `Invoice ${i.number} e-mailed${i.sent_to ? ` to ${i.sent_to}` : ''}`, ref, null, {
      number,
      to: i.sent_to ?? undefined,
    });
  }
  for (const c of finance.creditNotes) {
    const ref: Ref = { type: 'credit_note', id: c.id };
    if (c.finalized_at) {
      add(c.finalized_at, 'credit_note', `Credit note ${c.number} finalized`, ref, money(c.total_cents), {
        number: c.number ?? undefined,
      });
    } else {
      add(c.created_at, 'credit_note', 'Credit note drafted', ref, money(c.total_cents));
    }
  }
  for (const s of finance.syncs) {
    const ref: Ref = { type: 'accounting_sync', id: `${orderId}:${s.provider}` };
    const provider = s.provider;
    if (s.status === 'synced') {
      add(s.synced_at ?? s.updated_at, 'accounting_synced', `Booked in ${provider}`, ref, null, { provider });
    } else if (s.status === 'failed') {
      add(s.updated_at, 'accounting_failed', `${provider} sync failed: ${s.last_error ?? 'unknown error'}`, ref, null, {
        provider,
        error: s.last_error ?? undefined,
      });
    } else if (s.status === 'pending') {
      add(s.updated_at, 'accounting_pending', `${provider} sync pending`, ref, null, { provider });
    }
  }

  for (const w of webhooks) {
    if (!w.delivery_id) continue; // emitted while no endpoint was configured
    const ref: Ref = { type: 'webhook_delivery', id: w.delivery_id };
    const facts = { event_type: w.type, attempts: w.attempts ?? 0, status: w.status ?? undefined };
    if (w.status === 'succeeded') {
      add(w.delivered_at ?? w.updated_at, 'webhook_sent', `${w.type} delivered`, ref, null, facts);
    } else if (w.status === 'dead') {
      add(
        w.updated_at,
        'webhook_failed',
        `${w.type} not delivered after ${w.attempts ?? 0} attempts${w.last_error ? `: ${w.last_error}` : ''}`,
        ref,
        null,
        { ...facts, error: w.last_error ?? undefined },
      );
    } else
      add(w.created_at, 'webhook_pending', `${w.type} ${w.status} (${w.attempts ?? 0} attempts)`, ref, null, facts);
  }

  for (const p of payments) {
    add(
      p.received_at,
      'payment_event',
      `${p.provider} ${p.type}: ${p.status}${p.reason ? ` (${p.reason})` : ''}`,
      { type: 'payment_event', id: `${p.provider}:${p.event_id}` },
      money(p.amount_cents),
      { provider: p.provider, event_type: p.type, status: p.status, reason: p.reason ?? undefined },
    );
  }

  // oldest first; what happened at the same instant keeps the order it was added in (created before paid …)
  out.sort((a, b) => a.at.localeCompare(b.at) || a.seq - b.seq);
  return out.map(({ seq: _seq, ...e }) => e);
}
