/**
 * The baseline: a bare Fastify server (no plugins, no hooks) in its own process. One catch-all
 * route answers every method and path with the bytes the harness configured over IPC — the exact
 * status, content-type and body the app returned for the case's request. Request bodies are
 * parsed by Fastify's default parsers, as any Fastify route would.
 */
import Fastify from 'fastify';
import { failChild, mixKey, runChild } from './ipc.js';

let status = 200;
let contentType = 'application/json; charset=utf-8';
let body: Buffer = Buffer.from('{}');
/** For a mix: each request's own response, by `mixKey`; empty for a one-request case. */
let mix = new Map<string, { status: number; contentType: string; body: Buffer }>();

try {
  const app = Fastify({ logger: false });
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
    url: '/*',
    handler: (request, reply) => {
      if (mix.size > 0) {
        const origin = request.headers.origin;
        const r = mix.get(mixKey(request.method, request.url, typeof origin === 'string' ? origin : undefined));
        if (r) return reply.code(r.status).header('content-type', r.contentType).send(r.body);
        return reply.code(404).send();
      }
      return reply.code(status).header('content-type', contentType).send(body);
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the bare server is not listening on a TCP port');
  runChild({
    port: address.port,
    close: () => app.close(),
    onMessage(msg, reply) {
      if (msg.type === 'configure-mix') {
        if (msg.reset) mix = new Map();
        for (const r of msg.responses) {
          mix.set(r.key, { status: r.status, contentType: r.contentType, body: Buffer.from(r.bodyBase64, 'base64') });
        }
        reply({ type: 'configured', id: msg.id });
        return;
      }
      if (msg.type !== 'configure') return;
      mix = new Map();
      status = msg.response.status;
      contentType = msg.response.contentType;
      body = Buffer.from(msg.response.bodyBase64, 'base64');
      reply({ type: 'configured', id: msg.id });
    },
  });
} catch (err) {
  failChild(err);
}
