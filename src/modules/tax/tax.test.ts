/** The tax table of docs/finance.md ("Which tax applies"), row by row, and the rounding of the 0 % rows. */
import { describe, expect, it } from 'vitest';
import { taxFromGross } from '../../platform/money.js';
import { chargedPrice, determineTax, EXEMPTION_TEXT, netOfGross, type TaxSituation } from './tax.js';

const DE = { code: 'DE', is_eu: true, tax_rate: 0.19, food_tax_rate: 0.07, books_tax_rate: 0.07 };
const AT = { code: 'AT', is_eu: true, tax_rate: 0.2, food_tax_rate: 0.1, books_tax_rate: 0.1 };
const CZ = { code: 'CZ', is_eu: true, tax_rate: 0.21, food_tax_rate: 0.12, books_tax_rate: 0 };
const CH = { code: 'CH', is_eu: false, tax_rate: 0.081, food_tax_rate: 0.026, books_tax_rate: 0.026 };
const US = { code: 'US', is_eu: false, tax_rate: null, food_tax_rate: null, books_tax_rate: null };

const situation = (destination: TaxSituation['destination'], o: Partial<TaxSituation> = {}): TaxSituation => ({
  destination,
  german: DE,
  ossRegistered: true,
  business: false,
  ...o,
});

const goods = { tax_class: 'standard', is_digital: false };
const food = { tax_class: 'food', is_digital: false };
const digital = { tax_class: 'standard', is_digital: true };
const ebook = { tax_class: 'books', is_digital: true };

describe('determineTax: every row of the table', () => {
  const rows: [string, TaxSituation, typeof goods, number, string, string | null][] = [
    // any buyer, Germany: German rate of the tax class, S
    ['consumer in DE, goods', situation(DE), goods, 0.19, 'S', null],
    ['consumer in DE, food', situation(DE), food, 0.07, 'S', null],
    ['business in DE, digital (still German VAT)', situation(DE, { business: true }), digital, 0.19, 'S', null],
    ['business in DE, e-book', situation(DE, { business: true }), ebook, 0.07, 'S', null],
    // consumer in another EU state: that state's rate (OSS), German rate when not OSS-registered
    ['consumer in AT, OSS, goods', situation(AT), goods, 0.2, 'S', null],
    ['consumer in AT, OSS, food', situation(AT), food, 0.1, 'S', null],
    ['consumer in AT, OSS, digital', situation(AT), digital, 0.2, 'S', null],
    ['consumer in AT, not OSS, goods', situation(AT, { ossRegistered: false }), goods, 0.19, 'S', null],
    ['consumer in AT, not OSS, food', situation(AT, { ossRegistered: false }), food, 0.07, 'S', null],
    ['consumer in CZ, OSS, e-book at 0 %: zero rated', situation(CZ), ebook, 0, 'Z', null],
    // business with a valid VAT ID in another EU state: goods K, digital AE
    ['business in AT, goods', situation(AT, { business: true }), goods, 0, 'K', EXEMPTION_TEXT.K],
    ['business in AT, food', situation(AT, { business: true }), food, 0, 'K', EXEMPTION_TEXT.K],
    ['business in AT, digital', situation(AT, { business: true }), digital, 0, 'AE', EXEMPTION_TEXT.AE],
    [
      'business in AT, not OSS, digital',
      situation(AT, { business: true, ossRegistered: false }),
      digital,
      0,
      'AE',
      EXEMPTION_TEXT.AE,
    ],
    // outside the EU: goods G, digital O (a VAT ID changes nothing)
    ['consumer in CH, goods', situation(CH), goods, 0, 'G', EXEMPTION_TEXT.G],
    ['business in CH, goods', situation(CH, { business: true }), goods, 0, 'G', EXEMPTION_TEXT.G],
    ['consumer in CH, digital', situation(CH), digital, 0, 'O', EXEMPTION_TEXT.O],
    ['consumer in US, e-book', situation(US), ebook, 0, 'O', EXEMPTION_TEXT.O],
    ['consumer in US, food', situation(US), food, 0, 'G', EXEMPTION_TEXT.G],
  ];
  it.each(rows)('%s', (_name, s, item, rate, category, text) => {
    const d = determineTax(s, item);
    expect(d).toMatchObject({ tax_rate: rate, tax_category: category, tax_exemption_reason: text });
  });

  it('channel overrides in the S rows come in as the destination rates; the German rate prices the 0 % rows', () => {
    const overridden = { ...AT, tax_rate: 0.13 };
    expect(determineTax(situation(overridden), goods)).toMatchObject({ tax_rate: 0.13, tax_category: 'S' });
    const germanOverride = { ...DE, tax_rate: 0.16 };
    expect(determineTax(situation(germanOverride, { german: germanOverride }), goods).tax_rate).toBe(0.16);
    // not OSS-registered: the German rate as the channel sees it
    expect(determineTax(situation(AT, { german: germanOverride, ossRegistered: false }), goods).tax_rate).toBe(0.16);
    expect(determineTax(situation(CH, { german: germanOverride }), goods)).toMatchObject({
      tax_rate: 0,
      price_rate: 0.16,
    });
  });

  it('a class without its own rate falls back to the standard rate', () => {
    const noFood = { ...AT, food_tax_rate: null };
    expect(determineTax(situation(noFood), food).tax_rate).toBe(0.2);
  });
});

describe('the price a 0 % row charges: round-half-up(gross / (1 + German rate))', () => {
  it.each([
    [119, 0.19, 100],
    [9900, 0.19, 8319], // 8319.33
    [1999, 0.07, 1868], // 1868.22
    [999, 0.07, 934], // 933.64 → 934
    [107, 0.07, 100],
    [3, 0.5, 2], // 2.0
    [5, 1, 3], // 2.5 → 3 (half up)
    [1, 1, 1], // 0.5 → 1
    [0, 0.19, 0],
    [-5, 1, -3], // credit side: away from zero
  ])('%i at %d → %i', (gross, rate, net) => {
    expect(netOfGross(gross, rate)).toBe(net);
  });

  it('differs from gross − tax only where the tax is exactly half a cent', () => {
    // 5 at 100 %: tax 2.5 → 3, gross − tax = 2, but the net is round-half-up(2.5) = 3
    expect(5 - taxFromGross(5, 1)).toBe(2);
    expect(netOfGross(5, 1)).toBe(3);
    for (let g = 1; g < 3000; g += 7) {
      const exact = g / 1.19;
      expect(Math.abs(netOfGross(g, 0.19) - exact)).toBeLessThanOrEqual(0.5);
    }
  });

  it('charges the gross price in S and Z rows and the net in K, AE, G and O rows', () => {
    expect(chargedPrice(11900, determineTax(situation(AT), goods))).toBe(11900);
    expect(chargedPrice(1999, determineTax(situation(CZ), ebook))).toBe(1999);
    expect(chargedPrice(11900, determineTax(situation(AT, { business: true }), goods))).toBe(10000);
    expect(chargedPrice(1999, determineTax(situation(AT, { business: true }), ebook))).toBe(1868);
    expect(chargedPrice(999, determineTax(situation(CH), food))).toBe(934);
    expect(chargedPrice(9900, determineTax(situation(US), digital))).toBe(8319);
  });
});
