/** Money arithmetic in integer cents (DESIGN §5). */

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

/** round-half-up(a × percent / 100) for integer cents and an integer or decimal percent. */
export function percentOf(cents: number, percent: number): number {
  const p = Math.round(percent * 1000);
  return Math.floor((2 * cents * p + 100_000) / 200_000);
}
