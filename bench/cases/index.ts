/** Every benchmark case, in the order `npm run bench` runs them. Add a case: one file in this folder, one line here. */
import type { BenchCase } from '../lib/types.js';
import { catalogPage, catalogSearch, catalogSorted } from './catalog.js';
import { catalogSearch1m } from './catalog-1m.js';
import { checkout } from './checkout.js';
import { health } from './health.js';
import { loginMe } from './login-me.js';
import { storefront } from './storefront.js';
import { storefrontMix } from './storefront-mix.js';

export const cases: BenchCase[] = [
  health,
  loginMe,
  catalogSearch,
  catalogPage,
  catalogSorted,
  storefront,
  storefrontMix,
  checkout,
  catalogSearch1m,
];
