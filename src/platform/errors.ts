/**
 * The one error type of the service and its RFC 9457 rendering (DESIGN §3).
 * Anything that is not an AppError is hidden behind a 500 with the request id.
 */
import { Type } from '@sinclair/typebox';

export interface FieldError {
  /** JSON pointer into the request part, e.g. `/body/price_cents`. */
  path: string;
  message: string;
}

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: string,
    readonly status: number,
    readonly detail: string,
    readonly errors?: FieldError[],
    /** Extra response headers, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
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
  code: string;
  errors?: FieldError[];
  request_id?: string;
}

export function problem(
  code: string,
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
export const notFound = (what = 'Resource') => new AppError('not_found', 404, `${what} not found`);
export const badRequest = (code: string, detail: string, errors?: FieldError[]) =>
  new AppError(code, 400, detail, errors);
export const conflict = (code: string, detail: string) => new AppError(code, 409, detail);
export const invalidField = (path: string, message: string) =>
  new AppError('validation_failed', 400, `Invalid ${path.split('/').pop()}: ${message}`, [{ path, message }]);

/** The response schema of every problem document, for the OpenAPI reference. */
export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
    request_id: Type.Optional(Type.String()),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);
