/** Request and response schemas of the affiliate routes (admin side and affiliate portal). */
import { Type } from '@sinclair/typebox';
import { Body, Email, Nullable, PageMeta, Pagination, Timestamp } from '../../platform/http/schemas.js';
import { AFFILIATE_STATUSES, CONTENT_KINDS } from './partners.tables.js';
import { BalanceSchema } from './vendors.schemas.js';

export { AFFILIATE_STATUSES, CONTENT_KINDS };

const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });
const Status = Type.Union(AFFILIATE_STATUSES.map((s) => Type.Literal(s)));
const Code = Type.String({
  pattern: '^[A-Za-z0-9_-]{3,32}$',
  description: '3–32 characters A–Z, a–z, 0–9, _ and -; unique per shop regardless of case',
});
const Percent = Type.Number({ minimum: 0, maximum: 100, description: 'Percent, at most two decimals' });
const HttpsUrl = Type.String({ pattern: '^https://[^\\s]+$', maxLength: 2000, description: 'https URL' });

// ---- affiliates ----

export const AffiliateCreate = Body({
  name: Text(200),
  email: Email,
  code: Type.Optional(Code),
  commission_percent: Percent,
  status: Type.Optional(Status),
});

export const AffiliateInvite = Body(
  {
    email: Email,
    name: Type.Optional(Text(200)),
    code: Type.Optional(Code),
    commission_percent: Type.Optional(Percent),
  },
  {
    description:
      'An affiliate with this e-mail gets a fresh invite (200); otherwise one is created (name and ' +
      'commission_percent required) and invited (201)',
  },
);

export const AffiliatePatch = Body({
  name: Type.Optional(Text(200)),
  status: Type.Optional(Status),
  commission_percent: Type.Optional(Percent),
  code: Type.Optional(Code),
});

const affiliateFields = {
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  code: Type.String(),
  commission_percent: Type.Number(),
  status: Status,
  portal: Type.Union([Type.Literal('none'), Type.Literal('invited'), Type.Literal('active')], {
    description: 'Portal access: none, invited (link sent, not accepted) or active (accepted)',
  }),
  referral_link: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const Affiliate = Type.Object(affiliateFields);

export const AffiliateListItem = Type.Object({ ...affiliateFields, balances: Type.Array(BalanceSchema) });

export const AffiliateDetail = Type.Object({
  ...affiliateFields,
  balances: Type.Array(BalanceSchema),
  stats: Type.Object({
    referred_orders: Type.Integer({ description: 'Paid orders that earned this affiliate a commission' }),
    per_currency: Type.Array(
      Type.Object({
        currency: Type.String(),
        referred_orders: Type.Integer(),
        net_sales_cents: Type.Integer({ description: 'Commission basis: item net of tax and shipping' }),
        earned_cents: Type.Integer({ description: 'Commission net of clawbacks' }),
      }),
    ),
  }),
});

export const AffiliateListQuery = Type.Object(
  {
    status: Type.Optional(Status),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Name, e-mail or code' })),
    ...Pagination,
  },
  { additionalProperties: false },
);
export const AffiliateList = Type.Object({ affiliates: Type.Array(AffiliateListItem), ...PageMeta });

// ---- earnings ----

export const AffiliateEarning = Type.Object({
  id: Type.String(),
  affiliate_id: Type.String(),
  order_id: Type.String(),
  order_line_id: Nullable(Type.String()),
  subscription_id: Nullable(Type.String()),
  subscription_payment_number: Nullable(Type.Integer()),
  currency: Type.String(),
  gross_cents: Type.Integer(),
  net_cents: Type.Integer({ description: 'Commission basis: item net of tax and shipping' }),
  commission_cents: Type.Integer(),
  amount_cents: Type.Integer({ description: 'Commission earned' }),
  reversed_cents: Type.Integer({ description: 'Clawed back by credit notes or refunds' }),
  rate_percent: Type.Number(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('released')]),
  earned_at: Timestamp,
  released_at: Nullable(Timestamp),
});

const EarningFilters = {
  status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('released')])),
  currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
  from: Type.Optional(Timestamp),
  to: Type.Optional(Timestamp),
  ...Pagination,
};

export const EarningListQuery = Type.Object(
  {
    affiliate_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    ...EarningFilters,
  },
  { additionalProperties: false },
);
export const EarningList = Type.Object({ earnings: Type.Array(AffiliateEarning), ...PageMeta });

export const EarningRelease = Body(
  {
    earning_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 500, uniqueItems: true }),
    ),
    affiliate_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  {
    description:
      'With earning_ids: exactly those pending earnings (hold period ignored; any unknown or not pending → ' +
      '409 not_releasable, nothing released). Without: every pending earning older than the hold period, ' +
      'optionally of one affiliate',
  },
);

export const EarningReleaseResult = Type.Object({
  released: Type.Integer(),
  amounts: Type.Array(Type.Object({ currency: Type.String(), amount_cents: Type.Integer() })),
  earnings: Type.Array(AffiliateEarning),
});

// ---- promotional content ----

export const ContentCreate = Body({
  kind: Type.Union(CONTENT_KINDS.map((k) => Type.Literal(k))),
  title: Text(200),
  url: Type.Optional(HttpsUrl),
  image_url: Type.Optional(HttpsUrl),
  body: Type.Optional(Text(10_000)),
});

export const Content = Type.Object({
  id: Type.String(),
  kind: Type.Union(CONTENT_KINDS.map((k) => Type.Literal(k))),
  title: Type.String(),
  url: Nullable(Type.String()),
  image_url: Nullable(Type.String()),
  body: Nullable(Type.String()),
  created_at: Timestamp,
});

export const ContentListQuery = Type.Object(
  { kind: Type.Optional(Type.Union(CONTENT_KINDS.map((k) => Type.Literal(k)))), ...Pagination },
  { additionalProperties: false },
);
export const ContentList = Type.Object({ content: Type.Array(Content), ...PageMeta });

// ---- affiliate portal ----

export const PortalMe = Type.Object({
  ...affiliateFields,
  balances: Type.Array(BalanceSchema),
  min_payout_cents: Type.Integer({ description: 'A payout can be requested once available reaches this' }),
});

export const PortalEarning = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  order_number: Nullable(Type.String()),
  order_date: Nullable(Timestamp),
  subscription_payment_number: Nullable(Type.Integer()),
  currency: Type.String(),
  net_cents: Type.Integer({ description: 'Commission basis: item net of tax and shipping' }),
  rate_percent: Type.Number(),
  amount_cents: Type.Integer({ description: 'Commission earned' }),
  reversed_cents: Type.Integer(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('released')]),
  earned_at: Timestamp,
  released_at: Nullable(Timestamp),
});

export const PortalEarningQuery = Type.Object(EarningFilters, { additionalProperties: false });
export const PortalEarningList = Type.Object({ earnings: Type.Array(PortalEarning), ...PageMeta });
