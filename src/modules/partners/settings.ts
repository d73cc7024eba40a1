/** Partner settings of a shop (hold periods, minimum payout, referral base); defaults without a row. */
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { partnerSettings } from './partners.tables.js';

export interface PartnerSettings {
  vendorHoldDays: number;
  affiliateHoldDays: number;
  affiliateMinPayoutCents: number;
  referralBaseUrl: string | null;
}

export const PARTNER_DEFAULTS: PartnerSettings = {
  vendorHoldDays: 14,
  affiliateHoldDays: 30,
  affiliateMinPayoutCents: 5000,
  referralBaseUrl: null,
};

export async function loadPartnerSettings(ctx: Ctx): Promise<PartnerSettings> {
  const [row] = await ctx.db.select().from(partnerSettings).where(eq(partnerSettings.shopId, ctx.shopId));
  if (!row) return { ...PARTNER_DEFAULTS };
  return {
    vendorHoldDays: row.vendorHoldDays,
    affiliateHoldDays: row.affiliateHoldDays,
    affiliateMinPayoutCents: row.affiliateMinPayoutCents,
    referralBaseUrl: row.referralBaseUrl,
  };
}

export const partnerSettingsOut = (s: PartnerSettings) => ({
  vendor_hold_days: s.vendorHoldDays,
  affiliate_hold_days: s.affiliateHoldDays,
  affiliate_min_payout_cents: s.affiliateMinPayoutCents,
  referral_base_url: s.referralBaseUrl,
});

/** The end of the hold period: earnings earned before this may be released. */
export function holdCutoff(now: Date, holdDays: number): Date {
  return new Date(now.getTime() - holdDays * 86_400_000);
}
