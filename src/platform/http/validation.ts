/**
 * Request validation. Bodies are validated strictly: no type coercion, so a string where the
 * spec says integer is rejected. Query strings, params and headers arrive as text and are
 * coerced to the schema's types. All invalid fields are reported at once.
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../errors.js';

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
  for (const e of errors) {
    let path = base + e.instancePath;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
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
