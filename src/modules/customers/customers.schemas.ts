/** Request and response schemas of the admin's customer routes (docs/customers.md). */
import { Type } from '@sinclair/typebox';
import { Nullable, PageMeta, Pagination, Timestamp } from '../../platform/http/schemas.js';
import { AboOut } from '../digital/index.js';
import { AddressOut, OrderDetail, OrderSummary } from '../orders/index.js';

export const CUSTOMER_SORTS = [
  'last_order_desc',
  'created_desc',
  'created_asc',
  'email_asc',
  'email_desc',
  'orders_desc',
] as const;

export const CustomerListQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Part of the e-mail or the name' })),
    verified: Type.Optional(
      Type.Boolean({
        description: 'true: accounts with a verified e-mail; false: the rest (unverified accounts and guests)',
      }),
    ),
    kind: Type.Optional(
      Type.Union([Type.Literal('account'), Type.Literal('guest')], {
        description: 'account: customer accounts; guest: e-mails that bought without an account',
      }),
    ),
    sort: Type.Optional(
      Type.Union(
        CUSTOMER_SORTS.map((s) => Type.Literal(s)),
        {
          description:
            'last_order_desc (default; no order last), created_desc, created_asc, email_asc, email_desc, orders_desc',
        },
      ),
    ),
    ...Pagination,
  },
  { additionalProperties: false },
);

export const CustomerRow = Type.Object({
  kind: Type.Union([Type.Literal('account'), Type.Literal('guest')]),
  id: Nullable(
    Type.String({ description: 'The account id (GET /api/admin/customers/:id); null for a guest (no detail)' }),
  ),
  email: Type.String(),
  name: Nullable(Type.String({ description: 'The account’s name, else the billing name of the newest order' })),
  email_verified: Type.Boolean({ description: 'Always false for a guest' }),
  suspended: Type.Boolean(),
  created_at: Timestamp,
  order_count: Type.Integer({ description: 'Orders of this e-mail (in the employee’s channels)' }),
  last_order_at: Nullable(Timestamp),
  orders_href: Type.String({ description: 'The admin order list of this e-mail: GET /api/admin/orders?email=…' }),
});

export const CustomerList = Type.Object({ customers: Type.Array(CustomerRow), ...PageMeta });

export const CustomerParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const CustomerAccount = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String()),
  email_verified: Type.Boolean(),
  has_password: Type.Boolean({ description: 'false: a row without sign-in (never registered with a password)' }),
  suspended: Type.Boolean(),
  suspended_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const InvoiceMeta = Type.Object({
  id: Type.String(),
  number: Nullable(Type.String()),
  status: Type.String(),
  order_id: Type.String(),
  order_number: Type.String(),
  issue_date: Nullable(Type.String()),
  currency: Type.String(),
  is_business: Type.Boolean(),
  total_cents: Type.Integer(),
  paid_cents: Type.Integer(),
  credited_cents: Type.Integer(),
  finalized_at: Nullable(Timestamp),
  created_at: Timestamp,
});

const section = <T extends ReturnType<typeof Type.Object>>(item: T, href: string) =>
  Type.Object({
    items: Type.Array(item, { description: 'The newest 10' }),
    count: Type.Integer({ description: 'How many there are in all' }),
    href: Type.String({ description: href }),
  });

export const CustomerDetail = Type.Object({
  customer: CustomerAccount,
  orders: section(OrderSummary, 'All of them: GET /api/admin/orders?email=…'),
  subscriptions: section(AboOut, 'All of them: GET /api/admin/digital/abos?q=… (by e-mail)'),
  invoices: section(InvoiceMeta, 'All of them: GET /api/admin/invoices?q=… (by buyer e-mail)'),
});

export const CustomerOut = Type.Object({ customer: CustomerAccount });

export const CustomerExport = Type.Object(
  {
    exported_at: Timestamp,
    scope: Type.Object({
      channel_restricted: Type.Boolean({
        description: 'true: only the orders, subscriptions and invoices of channel_ids are in this export',
      }),
      channel_ids: Nullable(Type.Array(Type.String())),
    }),
    account: CustomerAccount,
    addresses: Type.Array(AddressOut, { description: 'Every distinct billing and shipping address used' }),
    orders: Type.Array(OrderDetail),
    subscriptions: Type.Array(AboOut),
    invoices: Type.Array(InvoiceMeta),
    consents: Type.Array(
      Type.Object({
        order_id: Type.String(),
        order_number: Type.String(),
        widerruf_verzicht: Type.Boolean({
          description: 'The buyer asked for immediate delivery and acknowledged losing the right of withdrawal',
        }),
        widerruf_verzicht_at: Nullable(Timestamp),
      }),
    ),
  },
  { description: 'The data the shop holds about the customer (GDPR Art. 15); no credentials or password hash' },
);
