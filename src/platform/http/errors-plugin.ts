/** Maps every failure to an RFC 9457 problem document (docs/ARCHITECTURE.md, "Errors"). */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../error-codes.js';
import { AppError, problem } from '../errors.js';
import { fieldErrors } from './validation.js';

const FASTIFY_CODES: Record<string, { code: ErrorCode; detail: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    detail: 'Send the request body as application/json',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'body_too_large', detail: 'The request body exceeds 1 MB' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'malformed_json',
    detail: 'The body is empty but the content type is application/json',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'malformed_json', detail: 'The body is not valid JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'invalid_content_length',
    detail: 'Content-Length does not match the body',
  },
};

export function sendProblem(reply: FastifyReply, err: AppError, requestId: string): FastifyReply {
  if (err.headers) reply.headers(err.headers);
  return reply
    .code(err.status)
    .type('application/problem+json')
    .send(problem(err.code, err.status, err.detail, err.errors, err.status >= 500 ? requestId : undefined));
}

export function toAppError(err: FastifyError & { validationContext?: string }): AppError | null {
  if (err instanceof AppError) return err;
  if (err.validation) {
    const errors = fieldErrors(err.validation as never, err.validationContext ?? 'body');
    const first = errors[0];
    const detail = first ? `${first.path} ${first.message}` : 'The request is invalid';
    return new AppError(
      'validation_failed',
      detail + (errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''),
      errors,
    );
  }
  const known = err.code ? FASTIFY_CODES[err.code] : undefined;
  if (known) return new AppError(known.code, known.detail);
  if (err instanceof SyntaxError && err.statusCode === 400) {
    return new AppError('malformed_json', 'The body is not valid JSON');
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    if (err.statusCode === 429) return new AppError('rate_limited', 'Too many requests');
    if (err.statusCode === 404) return new AppError('not_found', err.message);
    return AppError.withStatus('bad_request', err.statusCode, err.message);
  }
  return null;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = toAppError(err);
    if (known) {
      if (known.status >= 500) request.log.error({ err }, 'request failed');
      return sendProblem(reply, known, request.id);
    }
    request.log.error({ err }, 'unexpected error');
    return sendProblem(
      reply,
      new AppError('internal_error', `An unexpected error occurred; quote request id ${request.id}`),
      request.id,
    );
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      new AppError('not_found', `No route ${request.method} ${request.url.split('?')[0]}`),
      request.id,
    ),
  );
}
