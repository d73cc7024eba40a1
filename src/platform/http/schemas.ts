/** Schema building blocks shared by every module. */
import {
  type Static,
  type TNull,
  type TObject,
  type TProperties,
  type TSchema,
  type TUnion,
  Type,
} from '@sinclair/typebox';

/** A request body object: unknown fields are refused, so typos never pass silently. */
export const Body = <T extends TProperties>(props: T, opts: { description?: string } = {}): TObject<T> =>
  Type.Object(props, { additionalProperties: false, ...opts });

/**
 * `T | null`. A primitive schema becomes `type: [T, 'null']` rather than `anyOf`: Fastify's
 * serializer resolves `anyOf` by validating every value at run time, which made large list
 * responses several times slower; a type array serializes directly. Objects keep `anyOf`.
 */
export function Nullable<T extends TSchema>(schema: T): TUnion<[T, TNull]> {
  const type = (schema as { type?: unknown }).type;
  if (typeof type === 'string' && type !== 'object' && type !== 'array') {
    return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] }) as unknown as TUnion<[T, TNull]>;
  }
  return Type.Union([schema, Type.Null()]);
}

export const Timestamp = Type.String({ format: 'date-time' });

export const Id = (prefix: string) =>
  Type.String({ pattern: `^${prefix}_[0-9a-z]{1,40}$`, description: `${prefix}_… id`, maxLength: 64 });

export const Email = Type.String({ format: 'email', maxLength: 254 });

/** `limit` 1–200 (default 50) and `offset` 0–100,000 (docs/ARCHITECTURE.md). */
export const Pagination = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
};

/** A list query after its defaults are applied: `limit` and `offset` are always set. */
export type Paged<T> = Omit<T, 'limit' | 'offset'> & { limit: number; offset: number };

/** The page a `Pagination` query asks for, with its defaults (50 from 0). */
export const pageOf = (q: { limit?: number; offset?: number }) => ({ limit: q.limit ?? 50, offset: q.offset ?? 0 });

export const PageMeta = {
  count: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
};

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** A 204 answer: the schema says `null`, the handler sends nothing (`reply.code(204).send()`). */
export const NoContent = Type.Unsafe<undefined>(Type.Null({ description: 'No content' }));
