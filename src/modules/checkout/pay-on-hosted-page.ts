/**
 * Paying a one-time order session on the `test` provider's hosted page (docs/payments.md): the
 * billing address the form gives, the tax again when the billing country decides it (no shipping),
 * the test card, and the session's completion into its order.
 */
import { testCardOutcome } from '../../adapters/payment/test-provider.js';
import type { Ctx } from '../../platform/auth/types.js';
import type { Address } from '../orders/index.js';
import type { FormValues } from './checkout.schemas.js';
import type { CheckoutSessionRow } from './checkout.tables.js';
import { completePaidSession } from './complete-session.js';
import { destination, taxCart } from './pricing.js';

/** Paid (the page redirects to the return URL), or refused with the status and the message the page shows. */
export type HostedPayment = { paid: true } | { paid: false; status: 400 | 402; message: string };

const refuse = (message: string, status: 400 | 402 = 400): HostedPayment => ({ paid: false, status, message });

/**
 * Pays the open order session `s` (of the test provider) with the form's card and billing address
 * at `now`. Refusals change nothing: an incomplete address, a missing waiver for digital content,
 * a billing country the channel does not serve or whose tax changes the amount, a declined card.
 */
export async function payOnHostedPage(
  ctx: Ctx,
  s: CheckoutSessionRow,
  form: FormValues,
  now: Date,
): Promise<HostedPayment> {
  const country = (form.country ?? '').trim().toUpperCase();
  if (
    !form.name?.trim() ||
    !form.line1?.trim() ||
    !form.postal_code?.trim() ||
    !form.city?.trim() ||
    !/^[A-Z]{2}$/.test(country)
  ) {
    return refuse('Bitte Name und vollständige Rechnungsadresse angeben (Land als ISO-Code, z. B. DE).');
  }
  const waiver = s.widerrufVerzicht || form.widerruf_verzicht === 'on';
  if (s.hasDigital && !waiver) {
    return refuse('Für digitale Inhalte ist die Zustimmung zum vorzeitigen Beginn erforderlich.');
  }
  const billing: Address = {
    name: form.name.trim(),
    line1: form.line1.trim(),
    postal_code: form.postal_code.trim(),
    city: form.city.trim(),
    country,
    company: s.billingAddress?.company ?? null,
    vat_id: s.billingAddress?.vat_id ?? null,
  };
  const shopCtx = { ...ctx, shopId: s.shopId };
  // Without shipping the billing country is the destination: tax follows it.
  let retaxed: Retaxed = {};
  if (!s.requiresShipping && country !== s.billingAddress?.country) {
    const taxed = await taxForBillingCountry(shopCtx, s, country, billing.vat_id ?? null);
    if ('refused' in taxed) return refuse(taxed.refused);
    retaxed = taxed;
  }
  const card = testCardOutcome(form.card_number ?? '');
  if (!card.ok) return refuse(card.message, 402);
  await completePaidSession(shopCtx, s.id, {
    now,
    paymentRef: `test_${card.last4}${card.failsLater ? '_fails_later' : ''}`,
    billingAddress: billing,
    widerrufVerzicht: waiver,
    ...retaxed,
  });
  return { paid: true };
}

type Retaxed = { lines?: CheckoutSessionRow['lines']; taxCents?: number; shippingTaxCents?: number };

/**
 * The session's lines taxed for the billing country `country` (pricing.ts, as at session
 * creation), or the message refusing it: a country the channel does not serve, a VAT ID that
 * does not fit it, or a tax that changes the amount the buyer was shown (a 0 % row charges net).
 */
async function taxForBillingCountry(
  ctx: Ctx,
  s: CheckoutSessionRow,
  country: string,
  vatId: string | null,
): Promise<Retaxed | { refused: string }> {
  let dest: Awaited<ReturnType<typeof destination>>;
  try {
    dest = await destination(ctx, s.channelId, country, '/body/country');
  } catch {
    return { refused: `Wir liefern nicht nach ${country}.` };
  }
  let taxed: Awaited<ReturnType<typeof taxCart>>;
  try {
    taxed = await taxCart(
      ctx,
      s.channelId,
      dest,
      { country, vat_id: vatId },
      s.lines,
      s.shippingCents,
      '/body/country',
    );
  } catch {
    return { refused: 'Die USt-IdNr. der Bestellung passt nicht zu diesem Land.' };
  }
  const { lines, sums } = taxed;
  if (sums.total_cents !== s.totalCents) {
    return {
      refused: `Für ${country} gilt ein anderer Preis (${(sums.total_cents / 100).toFixed(2)} ${s.currency}); bitte den Kauf mit dieser Rechnungsadresse neu beginnen.`,
    };
  }
  return { lines, taxCents: sums.tax_cents, shippingTaxCents: sums.shipping_tax_cents };
}
