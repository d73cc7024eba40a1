/** Money arithmetic in integer cents (docs/ARCHITECTURE.md). */

/** Rates are stored with five decimals; work in units of 1/100000. */
const SCALE = 100_000;

/**
 * The tax contained in a gross amount: round-half-up(gross × rate / (1 + rate)), in integer
 * arithmetic so no float ever decides a cent.
 */
export function taxFromGross(grossCents: number, rate: number): number {
  const r = Math.round(rate * SCALE);
  if (r === 0 || grossCents === 0) return 0;
  const num = grossCents * r;
  const den = SCALE + r;
  const sign = num < 0 ? -1 : 1;
  const abs = Math.abs(num);
  // half up (away from zero for negative amounts, e.g. credit notes)
  return sign * Math.floor((2 * abs + den) / (2 * den));
}

/**
 * The one percentage of an amount: round-half-up(cents × percent / 100), halves away from zero for
 * negative amounts (as taxFromGross). The percent counts to thousandths (commission rates have
 * two decimals, plan discounts are whole), in integer arithmetic so no float decides a cent.
 */
export function percentOf(cents: number, percent: number): number {
  const p = Math.round(percent * 1000);
  const raw = cents * p; // in 1/100000 of a cent
  const abs = Math.floor((Math.abs(raw) + 50_000) / 100_000);
  return raw < 0 ? -abs : abs;
}
