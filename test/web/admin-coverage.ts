/**
 * Which admin operations the admin web app calls: every `METHOD /path` the admin session may call
 * (the x-roles of /openapi.json, clients/typescript/roles.js) against the calls found in the
 * sources of web/admin and web/shared — `$api.useQuery('get', '/api/…')` and the other
 * openapi-react-query hooks, `client.GET('/api/…')` and friends of openapi-fetch, and download
 * links written as a path (`/api/admin/invoices/${id}/pdf`, a GET; `${base}/xrechnung`: a GET of
 * any API path with that tail). Run directly
 * (`npx tsx test/web/admin-coverage.ts`) it prints the operations no screen calls.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OPERATION_ROLES } from '../../clients/typescript/roles.js';

const ROOTS = ['web/admin', 'web/shared'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const PARAM = '__param__';

/** A path of the source (`{id}` or `${expr}` segments) as a pattern over the API's paths. */
function pathPattern(path: string): RegExp {
  const parts = path
    .replace(/\$\{[^}]*\}/g, PARAM)
    .split('/')
    .map((segment) =>
      segment === PARAM || /^\{[^}]+\}$/.test(segment)
        ? '[^/]+'
        : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll(PARAM, '[^/]+'),
    );
  return new RegExp(`^${parts.join('/')}$`);
}

/** The `METHOD /path` calls written in the admin's sources. */
export function calledOperations(): { method: string; pattern: RegExp; source: string }[] {
  const calls: { method: string; pattern: RegExp; source: string }[] = [];
  const hook =
    /(?:useQuery|useSuspenseQuery|useInfiniteQuery|queryOptions|useMutation)\(\s*'(get|post|put|patch|delete)',\s*'(\/api\/[^']+)'/g;
  const fetcher = /client\.(GET|POST|PUT|PATCH|DELETE)\(\s*['`](\/api\/[^'`]+)['`]/g;
  const link = /`(\/api\/[^`\s]+)`/g;
  // a download path built on a base variable (`${base}/xrechnung?syntax=ubl`): any API path with that tail
  const tail = /`\$\{[a-zA-Z_.]+\}((?:\/[a-z][a-z0-9-]*)+)(?:\?[^`]*)?`/g;
  for (const file of ROOTS.flatMap(files)) {
    const text = readFileSync(file, 'utf8');
    const add = (method: string | undefined, path: string | undefined) => {
      if (method && path) calls.push({ method: method.toUpperCase(), pattern: pathPattern(path), source: file });
    };
    for (const m of text.matchAll(hook)) add(m[1], m[2]);
    for (const m of text.matchAll(fetcher)) add(m[1], m[2]);
    for (const m of text.matchAll(link)) {
      // a query key (['get', `/api/…`]) is not a call; an href or download path is a GET
      const before = text.slice(Math.max(0, m.index - 12), m.index);
      if (/'get',\s*$/.test(before)) continue;
      add('GET', m[1]?.split('?')[0]);
    }
    for (const m of text.matchAll(tail)) {
      if (m[1]) calls.push({ method: 'GET', pattern: new RegExp(`^/api/.+${m[1]}$`), source: file });
    }
  }
  return calls;
}

/** The admin-session operations no screen calls. */
export function operationsWithoutScreen(): string[] {
  const calls = calledOperations();
  return Object.keys(OPERATION_ROLES)
    .filter((operation) => {
      const [method, path] = operation.split(' ');
      return !calls.some((call) => call.method === method && call.pattern.test(path ?? ''));
    })
    .sort();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const left = operationsWithoutScreen();
  console.log(`${left.length} of ${Object.keys(OPERATION_ROLES).length} admin operations without a screen:`);
  for (const op of left) console.log(`  ${op}`);
}
