/**
 * The one way pages reach the API: openapi-fetch over the generated types of clients/typescript
 * (an API change that breaks a screen breaks `npm run typecheck`), with the admin session cookie
 * (credentials 'same-origin'; the page never sees or stores the bearer token), and
 * openapi-react-query hooks over it. A failed call throws the problem document, completed with
 * the HTTP status and the Retry-After wait; any 401 outside sign-in ends the session in the page.
 */
import createFetchClient, { type Middleware } from 'openapi-fetch';
import createQueryClient from 'openapi-react-query';
import type { components, paths } from '../../clients/typescript/schema.js';

export type Problem = components['schemas']['Problem'];
export type ErrorCode = Problem['code'];
/** A problem as pages receive it: the document plus the Retry-After wait (429, 503). */
export type ApiProblem = Problem & { retry_after_seconds?: number };
/** The variable parts of an order timeline event, which the admin words per kind in its language. */
export type TimelineFacts = NonNullable<
  paths['/api/admin/orders/{id}/timeline']['get']['responses'][200]['content']['application/json']['events'][number]['facts']
>;

let onUnauthorized: () => void = () => {};
/** The router installs what a lapsed session does (back to sign-in, the page remembered). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export const problems: Middleware = {
  async onResponse({ request, response }) {
    if (response.ok) return undefined;
    const url = new URL(request.url);
    if (response.status === 401 && url.pathname !== '/api/auth/login') onUnauthorized();
    let body: Partial<ApiProblem> = {};
    try {
      body = (await response.clone().json()) as Partial<ApiProblem>;
    } catch {
      // not JSON (a proxy's error page): described by its status below
    }
    const retry = Number(response.headers.get('retry-after'));
    const problem: ApiProblem = {
      type: body.type ?? 'about:blank',
      title: body.title ?? response.statusText,
      detail: body.detail ?? response.statusText,
      code: body.code ?? (response.status >= 500 ? 'internal_error' : 'bad_request'),
      status: response.status,
      ...(body.errors ? { errors: body.errors } : {}),
      ...(body.request_id ? { request_id: body.request_id } : {}),
      ...(Number.isFinite(retry) && retry > 0 ? { retry_after_seconds: retry } : {}),
    };
    return new Response(JSON.stringify(problem), {
      status: response.status,
      headers: { 'content-type': 'application/problem+json' },
    });
  },
};

export const client = createFetchClient<paths>({ baseUrl: '', credentials: 'same-origin' });
client.use(problems);

/** Query and mutation hooks typed by path: `$api.useQuery('get', '/api/admin/orders', …)`. */
export const $api = createQueryClient(client);

export function isProblem(value: unknown): value is ApiProblem {
  return typeof value === 'object' && value !== null && 'code' in value && 'status' in value;
}

/** A fresh Idempotency-Key for one user action (a retry of the same action reuses it). */
export function idempotencyKey(): string {
  // randomUUID exists in secure contexts only (https, localhost); a shop on plain http has getRandomValues
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
