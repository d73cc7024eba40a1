/**
 * Request validation. Bodies are validated strictly: no type coercion, so a string where the
 * spec says integer is rejected. Query strings, params and headers arrive as text and are
 * coerced to the schema's types. All invalid fields are reported at once.
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { storableDateTime } from '../dates.js';
import { AppError, type FieldError } from '../errors.js';

// ajv-formats is CommonJS; its default export sits on `.default` under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

function makeAjv(coerce: boolean) {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  });
  addFormats(ajv);
  // RFC 3339 as ajv-formats checks it, and only instants the database can hold (platform/dates.ts)
  const rfc3339 = ajv.formats['date-time'] as { validate: (s: string) => boolean; compare: unknown };
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (s: string) => rfc3339.validate(s) && storableDateTime(s),
    compare: rfc3339.compare as (a: string, b: string) => number | undefined,
  });
  ajv.addKeyword({ keyword: 'x-examples' });
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const PART: Record<string, string> = { querystring: 'query', body: 'body', params: 'params', headers: 'headers' };

/** Turns Ajv errors into `{path, message}` with JSON pointers like `/body/items/0/quantity`. */
export function fieldErrors(errors: AjvError[], context: string): FieldError[] {
  const base = `/${PART[context] ?? context}`;
  const out: FieldError[] = [];
  const seen = new Set<string>();
  // a value that fails every branch of a union (e.g. a day or a time) is one error at its path: the
  // branches' own errors at that same path are dropped for the union's
  const unions = new Set(
    errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath),
  );
  for (const e of errors) {
    if (
      unions.has(e.instancePath) &&
      e.keyword !== 'anyOf' &&
      e.keyword !== 'oneOf' &&
      e.keyword !== 'required' &&
      e.keyword !== 'additionalProperties'
    ) {
      continue;
    }
    let path = base + e.instancePath;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') {
      message = 'is none of the accepted forms (see the parameter description)';
    } else if (e.keyword === 'required') {
      path += `/${String(e.params.missingProperty)}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      path += `/${String(e.params.additionalProperty)}`;
      message = 'is not an accepted field';
    }
    const key = `${path}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message });
  }
  return out;
}

// U+0000 (PostgreSQL refuses it in text) and a UTF-16 surrogate without its partner (not valid
// Unicode, so not encodable as UTF-8) anywhere in a string.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSAFE_MESSAGE = 'must not contain U+0000 or a lone surrogate';
const MAX_REPORTED = 10;

/** True when a string holds U+0000 or a lone surrogate. */
export function isUnsafeText(s: string): boolean {
  return s.includes('\u0000') || LONE_SURROGATE.test(s);
}

const pointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The JSON pointers of every string (and object key) holding U+0000 or a lone surrogate in a
 * parsed value. Iterative, so a deeply nested body cannot exhaust the stack.
 */
export function unsafeTextPaths(value: unknown, base: string): string[] {
  const found: string[] = [];
  const stack: [unknown, string][] = [[value, base]];
  while (stack.length > 0 && found.length < MAX_REPORTED) {
    const [v, path] = stack.pop() as [unknown, string];
    if (typeof v === 'string') {
      if (isUnsafeText(v)) found.push(path);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}/${i}`]);
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, child] of Object.entries(v)) {
        if (isUnsafeText(k)) found.push(`${path}/${pointer(k)}`);
        else stack.push([child, `${path}/${pointer(k)}`]);
      }
    }
  }
  return found;
}

/**
 * docs/ARCHITECTURE.md: one rule for every string of every route — body, query, path parameters and
 * header values — refusing U+0000 and lone surrogates with 400 `validation_failed` before any
 * schema, handler or database sees them. Runs as a preValidation hook, after authentication.
 */
export function unsafeTextErrors(request: {
  body?: unknown;
  query?: unknown;
  params?: unknown;
  headers: Record<string, unknown>;
}): FieldError[] {
  const paths = [
    ...unsafeTextPaths(request.params, '/params'),
    ...unsafeTextPaths(request.query, '/query'),
    ...unsafeTextPaths(request.headers, '/headers'),
    ...unsafeTextPaths(request.body, '/body'),
  ];
  return paths.slice(0, MAX_REPORTED).map((path) => ({ path, message: UNSAFE_MESSAGE }));
}

function refuse(errors: FieldError[]): AppError {
  const first = errors[0] as FieldError;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return new AppError('validation_failed', `${first.path} ${first.message}${more}`, errors);
}

/**
 * Registers the text rule: path, query and headers are checked on request (before
 * authentication reads them), the body once it is parsed.
 */
export function registerTextSafety(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const errors = unsafeTextErrors({ params: request.params, query: request.query, headers: request.headers });
    if (errors.length > 0) throw refuse(errors);
  });
  app.addHook('preValidation', async (request) => {
    const errors = unsafeTextErrors({ body: request.body, headers: {} });
    if (errors.length > 0) throw refuse(errors);
  });
}
