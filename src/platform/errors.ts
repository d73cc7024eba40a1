/**
 * The one error type of the service and its RFC 9457 rendering (docs/ARCHITECTURE.md, "Errors").
 * Anything that is not an AppError is hidden behind a 500 with the request id. Codes and their
 * statuses are listed once, in error-codes.ts.
 */
import { Type } from '@sinclair/typebox';
import {
  type AlsoStatusOf,
  type CodeWithAlsoStatus,
  type CodeWithStatus,
  ERROR_CODES,
  type ErrorCode,
} from './error-codes.js';

export interface FieldError {
  /** JSON pointer into the request part, e.g. `/body/price_cents`. */
  path: string;
  message: string;
}

export class AppError extends Error {
  override name = 'AppError';
  /** From the code's row in ERROR_CODES, so one code has one status everywhere. */
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    /** Extra response headers, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.status = ERROR_CODES[code].status;
  }

  /** The documented second status of a code (`alsoStatus` in ERROR_CODES), for that one situation. */
  static withStatus<C extends CodeWithAlsoStatus>(
    code: C,
    status: AlsoStatusOf<C>,
    detail: string,
    errors?: FieldError[],
  ): AppError {
    const err = new AppError(code, detail, errors);
    (err as { status: number }).status = status;
    return err;
  }
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function titleFor(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldError[];
  request_id?: string;
}

export function problem(
  code: ErrorCode,
  status: number,
  detail: string,
  errors?: FieldError[],
  requestId?: string,
): Problem {
  const body: Problem = { type: `/problems/${code}`, title: titleFor(status), status, detail, code };
  if (errors && errors.length > 0) body.errors = errors;
  if (requestId) body.request_id = requestId;
  return body;
}

/** Shorthands for the errors every module raises. */
/**
 * Awaits a call to the payment provider: its failure (refusal, outage, timeout) becomes 502
 * `provider_error` with `<what>: <the provider's message>`, never a 500.
 */
export async function viaProvider<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new AppError('provider_error', `${what}: ${(err as Error).message}`);
  }
}

export const notFound = (what = 'Resource') => new AppError('not_found', `${what} not found`);
export const badRequest = (code: CodeWithStatus<400>, detail: string, errors?: FieldError[]) =>
  new AppError(code, detail, errors);
export const conflict = (code: CodeWithStatus<409>, detail: string) => new AppError(code, detail);
export const invalidField = (path: string, message: string) =>
  new AppError('validation_failed', `Invalid ${path.split('/').pop()}: ${message}`, [{ path, message }]);

/** The response schema of every problem document, for the OpenAPI reference. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.Unsafe<ErrorCode>({
      type: 'string',
      enum: Object.keys(ERROR_CODES),
      description: 'Stable snake_case code; `x-error-codes` at the root of this document gives its status and meaning',
    }),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    request_id: Type.Optional(Type.String()),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);
