/** Every benchmark case, in the order `npm run bench` runs them. Add a case: one file in this folder, one line here. */
import type { BenchCase } from '../lib/types.js';
import { health } from './health.js';
import { loginMe } from './login-me.js';
import { storefront } from './storefront.js';

export const cases: BenchCase[] = [health, loginMe, storefront];
