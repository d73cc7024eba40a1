/** Response and request schemas of the subscription routes (docs/digital.md; docs/decisions.md). */
import { Type } from '@sinclair/typebox';
import { Body, Nullable, Timestamp } from '../../platform/http/schemas.js';
import { OrderSummary } from '../orders/index.js';

export const AboOut = Type.Object({
  id: Type.String({ description: 'The subscription id (subscription_id in orders and events)' }),
  plan_id: Type.String(),
  product_id: Type.String(),
  channel_id: Type.String(),
  customer_id: Nullable(Type.String()),
  customer_email: Type.String(),
  status: Type.Union(
    ['trialing', 'active', 'past_due', 'unpaid', 'canceled'].map((s) => Type.Literal(s)),
    { description: 'Provider-style status' },
  ),
  cancel_at_period_end: Type.Boolean(),
  current_period_start: Timestamp,
  current_period_end: Timestamp,
  endet_am: Nullable(Timestamp),
  trial_end: Nullable(Timestamp),
  canceled_at: Nullable(Timestamp),
  grund: Nullable(Type.String()),
  price_cents: Type.Integer({ description: 'The price the subscription started with' }),
  currency: Type.String(),
  interval_unit: Type.String(),
  interval_count: Type.Integer(),
  interval_text: Type.String(),
  intro_price_cents: Nullable(Type.Integer()),
  intro_until: Nullable(Timestamp),
  next_charge_cents: Nullable(Type.Integer({ description: 'Amount of the charge at current_period_end' })),
  payments_count: Type.Integer(),
  failed_attempts: Type.Integer(),
  next_retry_at: Nullable(Timestamp),
  affiliate_code: Nullable(Type.String()),
  is_test: Type.Boolean(),
  provider: Type.String(),
  card_last4: Nullable(Type.String()),
  tax_rate: Type.Number({ description: 'Rate of the tax row determined at checkout (docs/finance.md)' }),
  tax_category: Nullable(
    Type.String({ description: 'EN 16931 category S, Z, K, AE, G or O; null: determined per payment (older abos)' }),
  ),
  tax_exemption_reason: Nullable(Type.String({ description: 'Invoice text of a 0 % row' })),
  vat_id_status: Nullable(Type.String({ description: 'VIES result when the buyer’s VAT ID decided the tax' })),
  vat_id_checked_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** The list filters (docs/decisions.md); abos.service.ts says which statuses each means. */
export const STATUS_FILTERS = ['laufend', 'testzeit', 'zahlung_offen', 'gekuendigt', 'beendet', 'alle'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

const StatusFilter = Type.Union(
  STATUS_FILTERS.map((s) => Type.Literal(s)),
  { description: 'laufend, testzeit, zahlung_offen, gekuendigt, beendet, alle (default)' },
);
const TestFilter = Type.Union([Type.Literal('ja'), Type.Literal('nein'), Type.Literal('alle')], {
  description: 'is_test subscriptions: ja, nein, alle (default)',
});

export const AboListQuery = Type.Object(
  {
    plan_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    q: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Part of the e-mail, or a subscription id' }),
    ),
    test: Type.Optional(TestFilter),
    status: Type.Optional(StatusFilter),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 500,
        default: 500,
        description: 'Page size; 500 (the spec’s list) is the most',
      }),
    ),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 100_000, default: 0, description: 'Subscriptions to skip, newest first' }),
    ),
  },
  { additionalProperties: false },
);

export const AboList = Type.Object({
  abos: Type.Array(AboOut, { maxItems: 500 }),
  count: Type.Integer({ description: 'How many match (the list holds at most 500, newest first)' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

/** One stored event of a subscription (abo_events; docs/digital.md). */
export const AboEvent = Type.Object({
  id: Type.String(),
  type: Type.String({
    description: 'abo.aktiv, abo.bezahlt, abo.zahlung_fehlgeschlagen, abo.gekuendigt, abo.fortgesetzt, abo.beendet',
  }),
  status: Type.String({ description: 'The subscription status after the event' }),
  data: Type.Record(Type.String(), Type.Unknown(), {
    description:
      'What the event adds (grund, canceled_by, sofort; order_id, amount_cents, payment_number; backfilled: derived from the row when the history began)',
  }),
  created_at: Timestamp,
});
export const AboEvents = Type.Object({ events: Type.Array(AboEvent) });

const Day = Type.String({ format: 'date', description: 'YYYY-MM-DD (UTC)' });
export const VerlaufQuery = Type.Object(
  {
    from: Day,
    to: Type.String({ format: 'date', description: 'YYYY-MM-DD (UTC), at most 400 days after from (both included)' }),
    test: Type.Optional(
      Type.Union([Type.Literal('ja'), Type.Literal('nein'), Type.Literal('alle')], {
        description: 'is_test subscriptions: ja, nein, alle (default)',
      }),
    ),
  },
  { additionalProperties: false },
);
const Count = Type.Integer({ minimum: 0 });
export const Verlauf = Type.Object({
  from: Day,
  to: Day,
  days: Type.Integer({ description: 'Days asked for (both ends included)' }),
  currency: Type.String({ description: 'The shop’s currency (its series comes first)' }),
  mrr: Type.Array(
    Type.Object({
      currency: Type.String(),
      days: Type.Array(
        Type.Object({
          date: Day,
          mrr_cents: Type.Integer({ description: 'Monthly recurring revenue at the end of the day' }),
          paying: Type.Integer({ description: 'Subscriptions paying (or owing: past_due) at the end of the day' }),
        }),
        { description: 'One point per day from `from` to `to` or today, whichever is first' },
      ),
    }),
  ),
  months: Type.Array(
    Type.Object({
      month: Type.String({ description: 'YYYY-MM; the first and last month count only days of the range' }),
      new: Count,
      cancelled: Type.Integer({ description: 'Cancellations made (sofort or at period end) and not withdrawn' }),
      churned: Type.Integer({ description: 'Subscriptions that ended' }),
    }),
  ),
  trials: Type.Object(
    {
      started: Count,
      converted: Type.Integer({ description: 'Of the trials started in the range: paid at least once' }),
      in_trial: Count,
      ended_without_payment: Count,
    },
    { description: 'Subscriptions with a trial created in the range, by what became of them' },
  ),
});

export const AboDetail = Type.Object({ abo: AboOut, bestellungen: Type.Array(OrderSummary) });

export const StatistikQuery = Type.Object({ test: Type.Optional(TestFilter) }, { additionalProperties: false });
export const Statistik = Type.Object({
  laufend: Type.Integer(),
  testzeit: Type.Integer(),
  zahlung_offen: Type.Integer(),
  gekuendigt: Type.Integer(),
  beendet: Type.Integer(),
  mrr_cents: Type.Integer({
    description: 'Monthly recurring revenue of active and past_due subscriptions in `currency` (the shop’s)',
  }),
  currency: Type.String(),
  mrr_by_currency: Type.Array(
    Type.Object({ currency: Type.String(), mrr_cents: Type.Integer() }, { additionalProperties: false }),
    { description: 'The monthly recurring revenue per currency subscriptions run in, the shop’s first' },
  ),
});

export const KuendigenBody = Body({
  sofort: Type.Optional(Type.Boolean({ default: false, description: 'true: ends now; false: at the period end' })),
  grund: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
});

export const CustomerKuendigenBody = Body({
  grund: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
});

export const AboParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const TokenView = Type.Object({
  abo: AboOut,
  plan_name: Type.String(),
  product_name: Type.String(),
  kann_kuendigen: Type.Boolean({ description: 'A cancellation at the period end can be scheduled' }),
  kann_fortsetzen: Type.Boolean({ description: 'A scheduled cancellation can be withdrawn' }),
});
