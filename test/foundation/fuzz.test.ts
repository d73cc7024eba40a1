/**
 * Schema-driven fuzz of every operation in the app's own OpenAPI document (DESIGN §3: no input
 * causes a 500). For each operation it picks a valid credential from the operation's `security`,
 * builds a plausible request from the schemas, and then replaces one body field, query parameter
 * or path parameter at a time with hostile values: wrong types, U+0000, lone surrogates, 100 kB
 * strings, huge and negative numbers, deep nesting, arrays for objects. No answer may be ≥ 500,
 * and no error body may leak SQL or a stack. Routes added later are covered without changes here,
 * as long as they are in the document and declare their credentials.
 *
 * The random parts come from a fixed seed (FUZZ_SEED overrides it), so a failure reproduces.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/modules/identity/sessions.js';
import {
  apiToken,
  call,
  createShop,
  customerToken,
  PLATFORM_TOKEN,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../helpers/app.js';

const SEED = Number(process.env.FUZZ_SEED ?? 16_2026);

/** mulberry32: a small deterministic generator. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = unknown;
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  minLength?: number;
  minItems?: number;
  default?: unknown;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema?: JsonSchema;
}
interface Operation {
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

// Deep nesting is spliced into the JSON text: JSON.stringify itself recurses too deeply for it.
const DEEP_ARRAY = '\u2063deep-array';
const DEEP_OBJECT = '\u2063deep-object';
const DEPTH = 10_000;
const DEEP_TEXT: Record<string, string> = {
  [JSON.stringify(DEEP_ARRAY)]: `${'['.repeat(DEPTH)}1${']'.repeat(DEPTH)}`,
  [JSON.stringify(DEEP_OBJECT)]: `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`,
};
const toJson = (v: Json) => JSON.stringify(v).replace(/"\u2063deep-(array|object)"/g, (m) => DEEP_TEXT[m] as string);

const BIG = 'x'.repeat(100_000);
/**
 * Hostile JSON values for one body field: the CORE ones always, SAMPLE of the others per field
 * (seeded), which keeps the run well under a minute while every value is used across the routes.
 */
const BODY_CORE: Json[] = [null, -1, 2 ** 31, 1e20, '\u0000', 'x\uDC00y', BIG, [], {}];
const BODY_OTHERS: Json[] = [
  true,
  0,
  0.5,
  -(2 ** 31) - 1,
  2 ** 53,
  -1e20,
  1e308,
  -1e308,
  '',
  'a\u0000b',
  '\uD800',
  '99999999999999999999',
  '2026-13-45T99:99:99Z',
  "' OR 1=1 --",
  [{}],
  [null, 1, 'x'],
  { a: { b: [1] } },
  DEEP_ARRAY,
  DEEP_OBJECT,
];
/** Hostile bodies as a whole. */
const WHOLE_BODIES: Json[] = [[], 'text', 42, null, [{}], DEEP_ARRAY, DEEP_OBJECT];
/** Hostile query values, already URL-encoded (CORE always, a seeded sample of the others). */
const QUERY_CORE: string[] = [
  '-1',
  '99999999999999999999',
  '1e400',
  'abc',
  '%00',
  '%ED%A0%80',
  '%FF',
  'x'.repeat(100_000),
];
const QUERY_OTHERS: string[] = ['', '0', '1.5', '-99999999999999999999', 'NaN', 'a%00b', '%', '%27%20OR%201%3D1%20--'];
/** Hostile path values, already URL-encoded (CORE always, a seeded sample of the others). */
const PATH_CORE: string[] = ['%00', '%ED%A0%80', '%FF', '99999999999999999999', 'x'.repeat(10_000)];
const PATH_OTHERS: string[] = ['a%00b', '%ED%B0%80x', '-1', '%27%20OR%201%3D1%20--', '..%2F..%2Fetc'];

/** `n` distinct items of a list, chosen by the seeded generator. */
function sample<T>(list: T[], n: number, next: () => number): T[] {
  const pool = [...list];
  const out: T[] = [];
  while (out.length < n && pool.length > 0) out.push(pool.splice(Math.floor(next() * pool.length), 1)[0] as T);
  return out;
}

/** A random string of code units from a seeded generator: control characters, surrogates, emoji. */
function randomText(next: () => number): string {
  const pool = [0, 1, 0x1f, 0x7f, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfeff, 0xfffe, 0x41, 0xe9, 0x4e2d];
  let s = '';
  const n = 1 + Math.floor(next() * 12);
  for (let i = 0; i < n; i++) {
    s += next() < 0.2 ? '\uD83D\uDE00' : String.fromCharCode(pool[Math.floor(next() * pool.length)] as number);
  }
  return s;
}

function typeOf(s: JsonSchema): string | undefined {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  if (s.type) return s.type;
  const alt = s.anyOf ?? s.oneOf;
  return alt ? typeOf(alt.find((x) => x.type !== 'null') ?? {}) : undefined;
}

/** A plausible value for a schema, so that one hostile field at a time reaches deep code. */
function plausible(s: JsonSchema | undefined, depth = 0): Json {
  if (!s || depth > 4) return 'x';
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const alt = s.anyOf ?? s.oneOf;
  if (alt && !s.type) return plausible(alt.find((x) => x.type !== 'null') ?? alt[0], depth + 1);
  switch (typeOf(s)) {
    case 'integer':
    case 'number':
      return s.minimum !== undefined ? Math.max(s.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'array':
      return s.minItems ? Array.from({ length: s.minItems }, () => plausible(s.items, depth + 1)) : [];
    case 'object': {
      const out: Record<string, Json> = {};
      for (const key of s.required ?? []) out[key] = plausible(s.properties?.[key], depth + 1);
      return out;
    }
    default:
      if (s.format === 'email') return 'fuzz@example.test';
      if (s.format === 'date-time') return '2026-01-01T00:00:00Z';
      if (s.format === 'date') return '2026-01-01';
      if (s.format === 'uri') return 'https://example.test/hook';
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
  }
}

const SECURITY_KIND: Record<string, string> = {
  platformToken: 'platform',
  adminSession: 'admin',
  apiToken: 'token',
  publishableKey: 'publishable',
  customerSession: 'customer',
  vendorSession: 'vendor',
  affiliateSession: 'affiliate',
};

/** An error body must never show SQL, a driver message or a stack frame. */
const LEAK =
  /\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\.js:\d+:\d+|\bSELECT\b.*\bFROM\b|\bINSERT INTO\b|\bUPDATE\b.*\bSET\b|syntax error|violates|duplicate key|relation "|invalid byte sequence|out of range for type|PGlite|postgres/i;

let t: TestApp;
let shop: ShopFixture;
const creds: Record<string, { token?: string; origin?: string }> = {};
const findings: string[] = [];
let requests = 0;
let lostCredential = false;
const timings: [number, string][] = [];
const statuses = new Map<number, number>();

async function freshCredential(kind: string): Promise<{ token?: string; origin?: string }> {
  const db = t.app.deps.database.db;
  switch (kind) {
    case 'platform':
      return { token: PLATFORM_TOKEN };
    case 'admin': {
      const login = await call(t.app, 'POST', '/api/auth/login', {
        body: { email: shop.ownerEmail, password: 'owner-password-1' },
      });
      return { token: login.data.token };
    }
    case 'token':
      return { token: await apiToken(t.app, shop, ['catalog:read', 'catalog:write', 'finance:read']) };
    case 'publishable':
      return { token: shop.publishableKey, origin: STORE_ORIGIN };
    case 'customer': {
      const token = await customerToken(t.app, shop);
      // its account must not be suspended by the admin's customer routes (the fuzz calls them with listed ids)
      const me = await call(t.app, 'GET', '/api/customer/me', { token });
      sharedIds.add(me.data.customer.id);
      return { token, origin: STORE_ORIGIN };
    }
    case 'vendor':
      return {
        token: (await createSession({ db }, { shopId: shop.shopId, kind: 'vendor', subjectId: 'ven_fuzz' })).token,
      };
    case 'affiliate':
      return {
        token: (await createSession({ db }, { shopId: shop.shopId, kind: 'affiliate', subjectId: 'aff_fuzz' })).token,
      };
    default:
      return {};
  }
}

async function send(
  method: string,
  url: string,
  cred: { token?: string; origin?: string },
  body: { json?: Json; form?: string } | undefined,
  label: string,
): Promise<{ statusCode: number; data: any }> {
  requests++;
  const headers: Record<string, string> = {};
  if (cred.origin) headers.origin = cred.origin;
  let payload: string | undefined;
  if (body?.json !== undefined) {
    headers['content-type'] = 'application/json';
    payload = toJson(body.json);
  } else if (body?.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = body.form;
  }
  if (cred.token) headers.authorization = `Bearer ${cred.token}`;
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(payload !== undefined ? { payload } : {}),
  });
  if (res.statusCode === 401 && cred.token && res.body.includes('"code":"invalid_credential"')) lostCredential = true;
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  if (res.statusCode >= 500)
    findings.push(`${res.statusCode} ${method} ${url.slice(0, 160)} [${label}] ${res.body.slice(0, 200)}`);
  else if (res.statusCode >= 400 && LEAK.test(res.body))
    findings.push(`leak ${method} ${url.slice(0, 160)} [${label}] ${res.body.slice(0, 300)}`);
  let data: any = null;
  if (String(res.headers['content-type'] ?? '').includes('json') && res.body) {
    try {
      data = JSON.parse(res.body);
    } catch {
      data = null;
    }
  }
  return { statusCode: res.statusCode, data };
}

/** Ids the app lists, keyed by list path, so that `…/{id}` routes can be called with a real id. */
const knownIds = new Map<string, string>();
/** Records behind the credentials the fuzz shares (the signed-in customer's account): never an id to call with. */
const sharedIds = new Set<string>();
function remember(path: string, data: any): void {
  if (!data || typeof data !== 'object') return;
  for (const v of Object.values(data)) {
    if (!Array.isArray(v)) continue;
    // never the owner, the publishable key or the customer the fuzz calls with (a valid new
    // password, origin list or a suspension would take its own credentials away)
    const item = v.find(
      (x) =>
        typeof x?.id === 'string' && x.id !== shop.ownerId && x.id !== shop.publishableKeyId && !sharedIds.has(x.id),
    ) as { id: string } | undefined;
    if (item) knownIds.set(path, item.id);
  }
}

function fillPath(path: string, method: string, override?: { name: string; value: string }): string {
  return path.replace(/\{([^}]+)\}/g, (whole, name: string, at: number) => {
    if (override?.name === name) return override.value;
    // a real id from the collection the parameter names (never for DELETE: the fuzz must not remove its own fixtures)
    const known = method !== 'DELETE' ? knownIds.get(path.slice(0, at).replace(/\/$/, '')) : undefined;
    if (name === 'prefix') return 'fuzz';
    return known ?? (whole === '{code}' ? 'DE' : 'x1');
  });
}

function queryString(params: Record<string, string>): string {
  const parts = Object.entries(params).map(([k, v]) => `${k}=${v}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

async function fuzzOperation(path: string, method: string, op: Operation, next: () => number): Promise<void> {
  const kinds = (op.security ?? []).map((s) => SECURITY_KIND[Object.keys(s)[0] as string] as string);
  const kind = kinds[0] ?? 'none';
  // a logout ends the session it is called with: give it one of its own
  const cred = path.endsWith('/logout') ? await freshCredential(kind) : (creds[kind] ?? {});
  const params = op.parameters ?? [];
  const baseQuery: Record<string, string> = {};
  for (const p of params.filter((x) => x.in === 'query' && (x as { required?: boolean }).required)) {
    baseQuery[p.name] = encodeURIComponent(String(plausible(p.schema)));
  }
  const content = op.requestBody?.content ?? {};
  const jsonSchema = content['application/json']?.schema;
  const formSchema = content['application/x-www-form-urlencoded']?.schema;
  const baseBody = jsonSchema ? (plausible(jsonSchema) as Record<string, Json>) : undefined;
  const baseForm = formSchema ? (plausible(formSchema) as Record<string, Json>) : undefined;
  const body = (json: Json | undefined) =>
    json !== undefined
      ? { json }
      : baseForm
        ? { form: new URLSearchParams(baseForm as Record<string, string>).toString() }
        : undefined;
  const url = (override?: { name: string; value: string }, query = baseQuery) =>
    fillPath(path, method, override) + queryString(query);

  // the plausible request itself (and ids to reuse from lists)
  const first = await send(method, url(), cred, body(baseBody), 'baseline');
  if (method === 'GET' && !path.includes('{')) remember(path, first.data);

  for (const p of params.filter((x) => x.in === 'path')) {
    for (const value of [...PATH_CORE, ...sample(PATH_OTHERS, 1, next)]) {
      await send(method, url({ name: p.name, value }), cred, body(baseBody), `path ${p.name}`);
    }
  }
  for (const p of params.filter((x) => x.in === 'query')) {
    const values = [
      ...QUERY_CORE,
      ...sample(QUERY_OTHERS, 1, next),
      encodeURIComponent(randomText(next).replace(/[\uD800-\uDFFF]/g, '?')),
    ];
    for (const value of values) {
      await send(method, url(undefined, { ...baseQuery, [p.name]: value }), cred, body(baseBody), `query ${p.name}`);
    }
    // the parameter twice (an array where one value is expected)
    await send(
      method,
      `${url(undefined, baseQuery)}${Object.keys(baseQuery).length ? '&' : '?'}${p.name}=1&${p.name}=2`,
      cred,
      body(baseBody),
      `query ${p.name} twice`,
    );
  }
  if (jsonSchema) {
    for (const whole of WHOLE_BODIES) await send(method, url(), cred, { json: whole }, 'whole body');
    const fields = Object.keys(jsonSchema.properties ?? {});
    for (const field of fields) {
      for (const value of [...BODY_CORE, ...sample(BODY_OTHERS, 2, next), randomText(next)]) {
        await send(method, url(), cred, { json: { ...baseBody, [field]: value } }, `body ${field}`);
      }
      // one level down: hostile values inside an object field or an array field's first item
      const sub = jsonSchema.properties?.[field];
      const inner = typeOf(sub ?? {}) === 'array' ? sub?.items : sub;
      if (inner && typeOf(inner) === 'object' && inner.properties) {
        const innerBase = plausible(inner) as Record<string, Json>;
        for (const innerField of Object.keys(inner.properties)) {
          for (const value of ['\u0000', BIG, 1e20, []]) {
            const item = { ...innerBase, [innerField]: value };
            const wrapped = typeOf(sub ?? {}) === 'array' ? [item] : item;
            await send(method, url(), cred, { json: { ...baseBody, [field]: wrapped } }, `body ${field}.${innerField}`);
          }
        }
      }
    }
  }
  if (formSchema) {
    for (const field of Object.keys(formSchema.properties ?? {})) {
      for (const value of ['%00', '%ED%A0%80', '%FF', 'x'.repeat(60_000), '']) {
        const others = new URLSearchParams(
          Object.fromEntries(Object.entries(baseForm ?? {}).filter(([k]) => k !== field)) as Record<string, string>,
        ).toString();
        await send(method, url(), cred, { form: `${others}${others ? '&' : ''}${field}=${value}` }, `form ${field}`);
      }
    }
  }
}

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  const db = t.app.deps.database.db;
  await db.execute(
    sql`INSERT INTO vendors (id, shop_id, name, email, status) VALUES ('ven_fuzz', ${shop.shopId}, 'Fuzz Vendor', 'vendor@fuzz.test', 'active')`,
  );
  await db.execute(
    sql`INSERT INTO affiliates (id, shop_id, name, email, code, commission_percent, status)
        VALUES ('aff_fuzz', ${shop.shopId}, 'Fuzz Affiliate', 'affiliate@fuzz.test', 'FUZZ', 10, 'active')`,
  );
  for (const kind of Object.values(SECURITY_KIND)) creds[kind] = await freshCredential(kind);
}, 120_000);
afterAll(() => t?.close());

describe('fuzz (DESIGN §3: no input causes a 500)', () => {
  it('answers every hostile value of every operation below 500, leaking nothing', async () => {
    const started = Date.now();
    const doc = (await call(t.app, 'GET', '/openapi.json')).data as {
      paths: Record<string, Record<string, Operation>>;
    };
    const ops: { path: string; method: string; op: Operation }[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) ops.push({ path, method: method.toUpperCase(), op });
    }
    // reads first (they collect ids), deletions last (they must not remove what later calls use)
    const rank = (m: string) => (m === 'GET' ? 0 : m === 'DELETE' ? 2 : 1);
    ops.sort((a, b) => rank(a.method) - rank(b.method));
    const next = rng(SEED);
    for (const { path, method, op } of ops) {
      const t0 = Date.now();
      await fuzzOperation(path, method, op, next);
      if (process.env.FUZZ_DEBUG) timings.push([Date.now() - t0, `${method} ${path}`]);
      // an operation that ended the shared session (it should not) must not blind the rest of the run
      if (lostCredential) {
        findings.push(`${method} ${path} ended a credential the fuzz shares`);
        for (const kind of Object.values(SECURITY_KIND)) creds[kind] = await freshCredential(kind);
        lostCredential = false;
      }
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `fuzz: ${ops.length} operations, ${requests} requests, ${seconds.toFixed(1)} s (seed ${SEED}); statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    if (process.env.FUZZ_DEBUG) console.log(timings.sort((a, b) => b[0] - a[0]).slice(0, 25));
    expect(ops.length).toBeGreaterThan(100);
    expect(findings).toEqual([]);
  }, 600_000);
});
