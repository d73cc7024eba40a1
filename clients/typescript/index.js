// A typed fetch client of the commerce service (types in schema.d.ts, generated from /openapi.json).
import createClient from 'openapi-fetch';

/**
 * Creates a client for `baseUrl`. `token` is sent as Bearer (a session `sess_…`, an API token
 * `tok_…`, a publishable key `pk_…`, …); storefront calls with a publishable key also need
 * `origin`, one of the key's allowed origins, when they do not run in that origin's browser.
 */
export function createCommerceClient({ baseUrl, token, origin, headers, fetch } = {}) {
  return createClient({
    baseUrl,
    fetch,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(origin ? { origin } : {}),
      ...headers,
    },
  });
}
