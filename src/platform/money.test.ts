/**
 * The one percentage rounding (percentOf) gives, cent for cent, what the two it replaced gave on
 * their inputs: partner commissions (two-decimal percents, amounts of either sign) and plan intro
 * prices (whole percents, amounts ≥ 0).
 */
import { describe, expect, it } from 'vitest';
import { percentOf, taxFromGross } from './money.js';

// the former partners/earnings.ts rounding: hundredths of a percent, halves away from zero
const commissionBefore = (cents: number, percent: number): number => {
  const raw = cents * Math.round(percent * 100);
  return raw >= 0 ? Math.floor((raw + 5000) / 10000) : -Math.floor((-raw + 5000) / 10000);
};
// the former money.ts rounding: thousandths of a percent, halves up
const introBefore = (cents: number, percent: number): number =>
  Math.floor((2 * cents * Math.round(percent * 1000) + 100_000) / 200_000);

describe('percentOf', () => {
  it('rounds half up, halves away from zero below zero', () => {
    expect(percentOf(50, 1)).toBe(1); // 0.5 → 1
    expect(percentOf(49, 1)).toBe(0);
    expect(percentOf(-50, 1)).toBe(-1); // −0.5 → −1, as taxFromGross rounds credit notes
    expect(percentOf(1999, 12.5)).toBe(250); // 249.875
    expect(percentOf(10_000, 19.99)).toBe(1999);
    expect(percentOf(-119, 19)).toBe(-23); // −22.61
    expect(taxFromGross(-119, 0.19)).toBe(-19);
  });

  it('equals the former commission rounding on two-decimal percents', () => {
    for (let cents = -3000; cents <= 3000; cents += 7) {
      for (let h = 0; h <= 10_000; h += 37) {
        const percent = h / 100;
        expect(percentOf(cents, percent), `${cents} × ${percent}%`).toBe(commissionBefore(cents, percent));
      }
    }
  });

  it('equals the former intro-price rounding on whole percents and amounts ≥ 0', () => {
    for (let cents = 0; cents <= 20_000; cents += 13) {
      for (let percent = 0; percent <= 100; percent++) {
        expect(percentOf(cents, percent), `${cents} × ${percent}%`).toBe(introBefore(cents, percent));
      }
    }
  });
});
