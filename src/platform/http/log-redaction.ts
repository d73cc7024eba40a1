/**
 * Keeps secrets out of request logs: path parameters named like a token, secret-shaped path
 * segments (`<prefix>_<43 base64url characters>`, what `newSecret` makes — also on unknown routes,
 * where guesses land) and `token` query values become `[redacted]`; the `authorization` and
 * `cookie` headers are never logged (the request serializer logs no headers, and pino's redaction
 * removes them should any log line carry them).
 */
import type { FastifyServerOptions } from 'fastify';

export const REDACTED = '[redacted]';

const SECRET_SEGMENT = /^[A-Za-z]+_[A-Za-z0-9_-]{32,}$/;
const TOKEN_PARAM = /token/i;

/** The URL with token path parameters, secret-shaped segments and `token` query values redacted. */
export function redactUrl(url: string, params?: Record<string, unknown>): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q + 1);
  const secrets = new Set(
    Object.entries(params ?? {})
      .filter(([k, v]) => TOKEN_PARAM.test(k) && typeof v === 'string' && v !== '')
      .map(([, v]) => v as string),
  );
  const safePath = path
    .split('/')
    .map((seg) => {
      let decoded = seg;
      try {
        decoded = decodeURIComponent(seg);
      } catch {
        // broken percent-encoding (logged by the router's refusal, with no route params to go by):
        // the segment may be a token with a typo, so it is not logged
        return REDACTED;
      }
      return secrets.has(decoded) || SECRET_SEGMENT.test(decoded) ? REDACTED : seg;
    })
    .join('/');
  if (!query) return safePath;
  const safeQuery = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = eq === -1 ? pair : pair.slice(0, eq);
      let name = key;
      try {
        name = decodeURIComponent(key.replace(/\+/g, ' '));
      } catch {
        // keep the raw key
      }
      return TOKEN_PARAM.test(name) && eq !== -1 ? `${key}=${REDACTED}` : pair;
    })
    .join('&');
  return `${safePath}?${safeQuery}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  params?: unknown;
  socket?: { remotePort?: number };
}

/** Logger options of the app: Fastify's request fields with the URL redacted, and no credential headers. */
export function loggerOptions(base: Exclude<FastifyServerOptions['logger'], boolean | undefined> | true | undefined) {
  const opts = base === true || base === undefined ? {} : base;
  return {
    ...opts,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie'],
      censor: REDACTED,
    },
    serializers: {
      ...((opts as { serializers?: Record<string, unknown> }).serializers ?? {}),
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: redactUrl(req.url ?? '', (req.params ?? undefined) as Record<string, unknown> | undefined),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}
