/** Request and response schemas of the back office: saved views, the overview, the order timeline, the refund preview. */
import { Type } from '@sinclair/typebox';
import { Body, Nullable, Timestamp } from '../../platform/http/schemas.js';
import { RefundAmountIn, RefundLinesIn } from '../orders/index.js';

// ---- saved views ----

export const SAVED_VIEW_RESOURCES = ['orders', 'products', 'invoices', 'abos', 'customers'] as const;
/** Saved views per employee and list. */
export const SAVED_VIEW_LIMIT = 50;

const Resource = Type.Union(
  SAVED_VIEW_RESOURCES.map((r) => Type.Literal(r)),
  { description: 'The list the view belongs to' },
);
const ViewName = Type.String({ minLength: 1, maxLength: 80 });
const ViewQuery = Type.String({
  maxLength: 2000,
  pattern: '^[^?#\\s]*$',
  description:
    "The list's URL search params (filters, sort, page size), without the leading ?; e.g. status=paid&sort=-created_at",
});

export const SavedView = Type.Object({
  id: Type.String(),
  resource: Resource,
  name: Type.String(),
  query: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const SavedViewListQuery = Type.Object({ resource: Resource }, { additionalProperties: false });
export const SavedViewCreate = Body({ resource: Resource, name: ViewName, query: ViewQuery });
export const SavedViewUpdate = Body(
  { name: Type.Optional(ViewName), query: Type.Optional(ViewQuery) },
  { description: 'At least one of name and query' },
);

// ---- overview ----

const Link = Type.Object(
  {
    path: Type.String({ description: 'The API list this tile counts' }),
    query: Type.Record(Type.String(), Type.String(), { description: 'Its filter as query parameters' }),
  },
  { description: 'The list the tile opens (the admin maps it to its screen)' },
);

const Tile = Nullable(
  Type.Object(
    { count: Type.Integer(), link: Nullable(Link) },
    { description: 'null when the employee may not see it (role, channel restriction)' },
  ),
);

const Revenue = Type.Array(
  Type.Object({
    currency: Type.String(),
    is_test: Type.Boolean({
      description: 'Test-mode orders (test provider or Stripe test keys), apart from live ones',
    }),
    paid_cents: Type.Integer({ description: 'Totals of orders paid in the period' }),
    refunded_cents: Type.Integer({ description: 'Refunds that succeeded, made in the period' }),
    net_cents: Type.Integer({ description: 'paid_cents − refunded_cents' }),
  }),
);

export const Overview = Type.Object({
  now: Timestamp,
  time_zone: Type.String({ description: 'The shop time zone the day and month start in' }),
  tiles: Type.Object({
    orders_paid_unfulfilled: Tile,
    orders_unpaid_due_soon: Tile,
    refunds_pending: Tile,
    refunds_failed: Tile,
    invoices_draft: Tile,
    accounting_failed: Tile,
    webhooks_dead: Tile,
    emails_failed: Tile,
  }),
  revenue: Nullable(
    Type.Object(
      {
        today: Revenue,
        month: Revenue,
        today_from: Timestamp,
        month_from: Timestamp,
      },
      { description: 'Per currency (docs/decisions.md "Revenue on the overview"); null for roles without finance' },
    ),
  ),
});

// ---- order timeline ----

export const TIMELINE_KINDS = [
  'created',
  'paid',
  'fulfilled',
  'cancelled',
  'refund_pending',
  'refunded',
  'refund_failed',
  'invoice_draft',
  'invoiced',
  'invoice_credited',
  'credit_note',
  'email_sent',
  'accounting_synced',
  'accounting_failed',
  'accounting_pending',
  'webhook_sent',
  'webhook_failed',
  'webhook_pending',
  'payment_event',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** The variable parts of an event's `detail`, for a client that words each kind in its own language. */
export const TimelineFacts = Type.Object(
  {
    number: Type.Optional(Type.String({ description: 'The order, invoice or credit note number' })),
    provider: Type.Optional(Type.String({ description: 'Payment provider or accounting system' })),
    reason: Type.Optional(Type.String({ description: "A refund's reason" })),
    units: Type.Optional(Type.Integer({ description: 'Units refunded (a refund by lines)' })),
    lines: Type.Optional(Type.Integer({ description: 'Lines refunded (a refund by lines)' })),
    to: Type.Optional(Type.String({ description: 'E-mail recipient' })),
    error: Type.Optional(Type.String({ description: 'What failed, as the other side said it' })),
    event_type: Type.Optional(Type.String({ description: 'Webhook event type, or the provider event type' })),
    attempts: Type.Optional(Type.Integer()),
    status: Type.Optional(
      Type.String({ description: 'Webhook delivery status, or the payment event result (processed, ignored …)' }),
    ),
  },
  { additionalProperties: false },
);

export const TimelineEvent = Type.Object({
  at: Timestamp,
  kind: Type.Union(TIMELINE_KINDS.map((k) => Type.Literal(k))),
  detail: Type.String({ description: 'A short English text; the admin words its own per kind from `facts`' }),
  facts: Type.Optional(TimelineFacts),
  ref: Nullable(
    Type.Object({
      type: Type.Union(
        ['order', 'refund', 'invoice', 'credit_note', 'accounting_sync', 'webhook_delivery', 'payment_event'].map((k) =>
          Type.Literal(k),
        ),
      ),
      id: Type.String(),
    }),
  ),
  amount_cents: Type.Optional(Nullable(Type.Integer())),
});

export const Timeline = Type.Object({ events: Type.Array(TimelineEvent, { description: 'Oldest first' }) });

// ---- refund preview ----

export const RefundPreviewBody = Body(
  {
    amount_cents: RefundAmountIn,
    lines: RefundLinesIn,
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { description: 'As the refund: amount_cents or lines (not both; neither: all that is left)' },
);

const PreviewCreditLine = Type.Object({
  name: Type.String(),
  quantity: Type.Integer(),
  net_cents: Type.Integer(),
  tax_rate: Type.Number(),
  tax_cents: Type.Integer(),
  gross_cents: Type.Integer(),
  tax_category: Type.String(),
  tax_exemption_reason: Nullable(Type.String()),
  invoice_position: Nullable(Type.Integer({ description: 'The invoice line it credits; null for an amount credit' })),
});

export const RefundPreview = Type.Object({
  amount_cents: Type.Integer(),
  currency: Type.String(),
  provider: Type.Union([Type.Literal('stripe'), Type.Literal('test'), Type.Literal('manual')], {
    description: 'manual: paid outside the provider; the merchant pays it back, the refund is recorded as done',
  }),
  refundable_before: Type.Integer(),
  refundable_after: Type.Integer(),
  resulting_status: Type.String({ description: 'The order state once the refund succeeded' }),
  lines: Type.Array(
    Type.Object({
      line_id: Type.String(),
      position: Type.Integer(),
      name: Type.String(),
      quantity: Type.Integer(),
      refunded_quantity: Type.Integer({ description: 'Given back by earlier refunds by lines' }),
      refund_quantity: Type.Integer({ description: 'Given back by this refund' }),
      refundable_quantity: Type.Integer({ description: 'Left after this refund' }),
      amount_cents: Type.Integer({ description: "This refund's gross for the line (0 when not refunded by lines)" }),
    }),
  ),
  credit_note: Nullable(
    Type.Object(
      {
        lines: Type.Array(PreviewCreditLine),
        net_cents: Type.Integer(),
        tax_cents: Type.Integer(),
        total_cents: Type.Integer(),
      },
      { description: 'The credit note the refund writes (finalized at once); null without a final invoice' },
    ),
  ),
  partner_clawback: Type.Array(
    Type.Object({
      partner_type: Type.Union([Type.Literal('vendor'), Type.Literal('affiliate')]),
      partner_id: Type.String(),
      name: Type.String(),
      amount_cents: Type.Integer(),
    }),
  ),
});
