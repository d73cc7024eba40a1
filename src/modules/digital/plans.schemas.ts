/** Request and response schemas of the plan routes (docs/digital.md; docs/decisions.md). */
import { Type } from '@sinclair/typebox';
import { Body, Nullable, Timestamp } from '../../platform/http/schemas.js';
import { INTERVAL_UNITS } from './digital.tables.js';

const IntervalUnit = Type.Union(
  INTERVAL_UNITS.map((u) => Type.Literal(u)),
  { description: 'day | week | month | year' },
);
const PriceCents = Type.Integer({ minimum: 50, maximum: 10_000_000, description: 'Gross price per interval in cents' });
const IntervalCount = Type.Integer({
  minimum: 1,
  description: 'Default 1; at most 1095 days, 156 weeks, 36 months or 3 years',
});
const TrialDays = Type.Integer({ minimum: 0, maximum: 730, description: 'Default 0' });
const IntroPercent = Nullable(
  Type.Integer({ minimum: 1, maximum: 100, description: 'Only together with intro_discount_months' }),
);
const IntroMonths = Nullable(
  Type.Integer({ minimum: 1, maximum: 120, description: 'Only together with intro_discount_percent' }),
);
const Name = Type.String({ minLength: 1, maxLength: 200 });

export const PlanCreate = Body({
  product_id: Type.String({ minLength: 1, maxLength: 64, description: 'A digital product of the shop; immutable' }),
  name: Name,
  price_cents: PriceCents,
  interval_unit: IntervalUnit,
  interval_count: Type.Optional(IntervalCount),
  trial_days: Type.Optional(TrialDays),
  intro_discount_percent: Type.Optional(IntroPercent),
  intro_discount_months: Type.Optional(IntroMonths),
  is_active: Type.Optional(Type.Boolean()),
});

export const PlanPatch = Body({
  product_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Cannot be changed: only the current value is accepted' }),
  ),
  name: Type.Optional(Name),
  price_cents: Type.Optional(PriceCents),
  interval_unit: Type.Optional(IntervalUnit),
  interval_count: Type.Optional(IntervalCount),
  trial_days: Type.Optional(TrialDays),
  intro_discount_percent: Type.Optional(IntroPercent),
  intro_discount_months: Type.Optional(IntroMonths),
  is_active: Type.Optional(Type.Boolean()),
});

const planFields = {
  id: Type.String(),
  product_id: Type.String(),
  name: Type.String(),
  price_cents: Type.Integer(),
  currency: Type.String({ description: "The shop's default channel currency (EUR without one)" }),
  interval_unit: Type.String(),
  interval_count: Type.Integer(),
  interval_text: Type.String({ description: 'German, e.g. monatlich, alle 3 Monate' }),
  trial_days: Type.Integer(),
  intro_discount_percent: Nullable(Type.Integer()),
  intro_discount_months: Nullable(Type.Integer()),
  intro_price_cents: Nullable(Type.Integer()),
  first_charge_cents: Type.Integer({ description: '0 with a trial, else the intro price, else the price' }),
  is_active: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const PlanOut = Type.Object(planFields);
export const PlanPatchOut = Type.Object({
  ...planFields,
  hinweis: Type.Optional(Type.String({ description: 'Present when price or interval changed' })),
});
export const PlanListOut = Type.Object({
  plaene: Type.Array(
    Type.Object({
      ...planFields,
      product_name: Type.String(),
      active_count: Type.Integer({ description: 'Running subscriptions (active, trialing, past_due)' }),
    }),
  ),
});

export const StatusOut = Type.Object({
  erlaubt: Type.Boolean({ description: 'Read-only: the platform makes the add-on available' }),
  aktiv: Type.Boolean(),
  abo_provision: Type.Union([Type.Literal('erste'), Type.Literal('monate'), Type.Literal('immer')]),
  abo_provision_monate: Nullable(Type.Integer()),
});

export const StatusPut = Body({
  aktiv: Type.Optional(Type.Boolean()),
  abo_provision: Type.Optional(Type.Union([Type.Literal('erste'), Type.Literal('monate'), Type.Literal('immer')])),
  abo_provision_monate: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: 1200, description: 'Required (≥ 1) with abo_provision monate' })),
  ),
});
