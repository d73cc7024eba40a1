/**
 * Routes the authorization matrix does not run, each with the reason no credential decides what it
 * answers. matrix.test.ts fails for any other registered route without a row, and for an entry
 * here that matches no registered route.
 */
export interface NoRow {
  /** What the entry covers, as `METHOD /pattern` (a trailing `*` matches any rest of the pattern). */
  route: string;
  reason: string;
  matches(method: string, url: string): boolean;
}

const noRow = (route: string, reason: string): NoRow => {
  const [method, pattern = ''] = route.split(' ');
  const prefix = pattern.endsWith('*') ? pattern.slice(0, -1) : null;
  return {
    route,
    reason,
    matches: (m, url) =>
      (method === '*' || m === method) && (prefix !== null ? url.startsWith(prefix) : url === pattern),
  };
};

export const NO_ROW: NoRow[] = [
  noRow('GET /', 'the links page (pages module): public, the same for every caller (pages.test.ts)'),
  noRow('GET /admin*', "the admin app's files (pages module): public static files; its data comes from /api routes"),
  noRow('GET /shop*', "the storefront's files (pages module): public static files; its data comes from /api routes"),
  noRow(
    'GET /vendor*',
    "the vendor portal's files (pages module): public static files; its data comes from /api routes",
  ),
  noRow(
    'GET /affiliate*',
    "the affiliate portal's files (pages module): public static files; its data comes from /api routes",
  ),
  noRow('* /docs*', 'the interactive API reference: static files of @fastify/swagger-ui, public, no shop data'),
  noRow(
    'GET /openapi.json',
    'the OpenAPI document: public, the same for every caller (test/foundation/openapi.test.ts)',
  ),
  noRow('OPTIONS *', 'the CORS preflight of every path: public, answers by Origin only (storefront CORS tests)'),
];
