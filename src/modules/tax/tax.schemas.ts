/** The tax fields of priced documents (checkout sessions, orders): their schemas and their shaping. */
import { Type } from '@sinclair/typebox';
import { isoOrNull } from '../../platform/dates.js';
import { Nullable, Timestamp } from '../../platform/http/schemas.js';
import { exemptionText, type TaxCategory } from './tax.js';

const TaxCategoryOut = Type.Union(
  ['S', 'Z', 'K', 'AE', 'G', 'O'].map((c) => Type.Literal(c)),
  {
    description: 'EN 16931 VAT category (docs/finance.md "Which tax applies")',
  },
);

/** Per line: which row of the tax table applied. */
export const lineTaxFields = {
  tax_category: TaxCategoryOut,
  tax_exemption_reason: Nullable(Type.String({ description: 'Text the invoice carries for a 0 % category' })),
};

/** The shipping's tax and the buyer's VAT ID check (docs/finance.md "Which tax applies"). */
export const pricingTaxFields = {
  shipping_tax_cents: Type.Integer(),
  shipping_tax_rate: Nullable(Type.Number()),
  shipping_tax_category: Nullable(TaxCategoryOut),
  shipping_tax_exemption_reason: Nullable(Type.String()),
  vat_id_status: Nullable(
    Type.String({
      description:
        'valid | invalid (VIES) | unverified (VIES unreachable, accepted) | unchecked (VIES unreachable, VAT charged); null when no VAT ID decided the tax',
    }),
  ),
  vat_id_checked_at: Nullable(Timestamp),
};

/** The shipping's tax and the VAT ID check of a session or an order (docs/finance.md). */
export function pricingTaxOut(s: {
  shippingTaxCents: number;
  shippingTaxRate: number | null;
  shippingTaxCategory: string | null;
  vatIdStatus: string | null;
  vatIdCheckedAt: Date | null;
}) {
  const category = s.shippingTaxCategory as TaxCategory | null;
  return {
    shipping_tax_cents: s.shippingTaxCents,
    shipping_tax_rate: s.shippingTaxRate,
    shipping_tax_category: category,
    shipping_tax_exemption_reason: exemptionText(category),
    vat_id_status: s.vatIdStatus,
    vat_id_checked_at: isoOrNull(s.vatIdCheckedAt),
  };
}
