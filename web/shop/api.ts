/**
 * The storefront's way to the API — exactly what an outside developer's storefront does: the
 * generated client types (clients/typescript), `Authorization: Bearer pk_…` with the shop's
 * publishable key (public by design; GET /api/storefront/bootstrap hands it to the page) and the
 * browser's own Origin, which must be on the key's allowlist. Only /api/store/* is called with it.
 */
import createFetchClient from 'openapi-fetch';
import createQueryClient from 'openapi-react-query';
import type { paths } from '../../clients/typescript/schema.js';
import { problems } from '../shared/api.js';

export type StoreProduct =
  paths['/api/store/products/{idOrSlug}']['get']['responses'][200]['content']['application/json']['product'];
export type Bootstrap = paths['/api/storefront/bootstrap']['get']['responses'][200]['content']['application/json'];
export type CheckoutSession =
  paths['/api/store/checkout-sessions/{id}']['get']['responses'][200]['content']['application/json'];

let publishableKey = '';

/**
 * Customer-session routes take the `csid` cookie (set by POST /api/customer/login or verify-email,
 * HttpOnly; the page never sees the token): they get no publishable key, which they would refuse.
 * The e-mailed subscription links (`/api/checkout/abo/:token…`) carry their credential in the path.
 */
const NO_KEY_PATHS = [
  '/api/customer/me',
  '/api/customer/orders',
  '/api/customer/logout',
  '/api/customer/abos',
  '/api/customer/invoices',
  '/api/checkout/abo/',
];

export const store = createFetchClient<paths>({ baseUrl: '', credentials: 'same-origin' });
store.use(problems);
store.use({
  onRequest({ request }) {
    const path = new URL(request.url).pathname;
    if (publishableKey && !NO_KEY_PATHS.some((p) => path.startsWith(p))) {
      request.headers.set('authorization', `Bearer ${publishableKey}`);
    }
    return request;
  },
});

/** Query and mutation hooks over the store client: `$store.useQuery('get', '/api/store/products', …)`. */
export const $store = createQueryClient(store);

/** Reads the shop and its key for this host (public, no key); null when this host has no storefront. */
export async function loadBootstrap(): Promise<Bootstrap | null> {
  const res = await fetch('/api/storefront/bootstrap', { headers: { accept: 'application/json' } });
  if (!res.ok) return null;
  const boot = (await res.json()) as Bootstrap;
  publishableKey = boot.publishable_key;
  return boot;
}
