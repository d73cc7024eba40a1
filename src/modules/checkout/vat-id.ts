/**
 * Buyer VAT IDs (docs/finance.md): the format per EU member state is checked always; the EU VIES
 * service is asked when the ID decides the tax (a buyer in another EU state). When VIES cannot
 * answer, the shop's `vies_unavailable` setting decides: `charge_vat` (default, price as for a
 * consumer) or `accept_unverified` (price as a business and mark the order `vat_id_unverified`).
 */
import { createViesClient, ViesUnavailableError } from '../../adapters/vies/index.js';
import type { Ctx } from '../../platform/auth/types.js';
import { AppError } from '../../platform/errors.js';
import type { VatIdStatus } from '../tax/index.js';

/** VAT number patterns after the prefix (EU Commission's VIES format list); EL is Greece. */
const FORMATS: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

/** The ISO country of a VAT prefix (Greece uses EL). */
export const vatPrefixCountry = (prefix: string): string => (prefix === 'EL' ? 'GR' : prefix);

/** Upper case without spaces, dots and dashes. */
export const normalizeVatId = (vatId: string): string => vatId.replace(/[\s.-]/g, '').toUpperCase();

/** Whether a (normalized) VAT ID has the format of an EU member state's VAT number. */
export function isEuVatIdFormat(vatId: string): boolean {
  const pattern = FORMATS[vatId.slice(0, 2)];
  return pattern?.test(vatId.slice(2)) ?? false;
}

/**
 * Checks a billing address's VAT ID by format and answers it normalized: an EU prefix must be
 * followed by that state's number format, and a buyer in an EU state needs an EU VAT ID. Outside
 * the EU any other tax number is kept as given (it does not change the tax). 400 vat_id_invalid.
 */
export function checkVatIdFormat(vatId: string, billingIsEu: boolean, path: string): string {
  const normalized = normalizeVatId(vatId);
  const euPrefix = FORMATS[normalized.slice(0, 2)] !== undefined;
  if ((euPrefix || billingIsEu) && !isEuVatIdFormat(normalized)) {
    throw new AppError('vat_id_invalid', `${vatId} is not a valid EU VAT ID`, [
      {
        path,
        message: euPrefix
          ? `does not match the VAT number format of ${normalized.slice(0, 2)}`
          : 'must be an EU VAT ID (country prefix and number)',
      },
    ]);
  }
  return normalized;
}

/** valid | invalid (VIES said so) | unverified (VIES unreachable, accepted) | unchecked (VIES unreachable, VAT charged): defined in tax. */
export type { VatIdStatus };

export interface VatIdCheck {
  vat_id: string;
  status: VatIdStatus;
  checked_at: Date;
  /** The name VIES holds for the number, when it tells. */
  name: string | null;
  /** The buyer is priced as a business (valid, or accepted unverified). */
  business: boolean;
}

export type ViesUnavailablePolicy = 'charge_vat' | 'accept_unverified';

/** Asks VIES about a format-checked EU VAT ID; an outage is decided by the shop's policy. */
export async function verifyVatId(
  ctx: Pick<Ctx, 'config' | 'clock' | 'log'>,
  vatId: string,
  policy: ViesUnavailablePolicy,
): Promise<VatIdCheck> {
  const client = createViesClient({ baseUrl: ctx.config.viesApiUrl });
  try {
    const r = await client.check(vatId.slice(0, 2), vatId.slice(2));
    const status = r.valid ? 'valid' : 'invalid';
    return { vat_id: vatId, status, checked_at: ctx.clock.now(), name: r.name, business: r.valid };
  } catch (err) {
    if (!(err instanceof ViesUnavailableError)) throw err;
    ctx.log?.warn({ err: err.message }, 'VIES unavailable; shop policy %s', policy);
    const accept = policy === 'accept_unverified';
    return {
      vat_id: vatId,
      status: accept ? 'unverified' : 'unchecked',
      checked_at: ctx.clock.now(),
      name: null,
      business: accept,
    };
  }
}
