/** GET /api/auth/me with an owner's session token: authentication plus the user and shop lookups. */
import type { BenchCase } from '../lib/types.js';

export const loginMe: BenchCase = {
  name: 'login-me',
  description: 'GET /api/auth/me with a Bearer session token (authenticated, DB-backed)',
  connections: 20,
  durationSeconds: 10,
  async setup(ctx) {
    const shop = await ctx.createShop();
    return {
      method: 'GET',
      path: '/api/auth/me',
      headers: { authorization: `Bearer ${shop.ownerToken}` },
    };
  },
  targets: { p99Ms: 50, maxRssMb: 256 },
};
