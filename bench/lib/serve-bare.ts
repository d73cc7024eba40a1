/**
 * The baseline: a bare Fastify server (no plugins, no hooks) in its own process. One catch-all
 * route answers every method and path with the bytes the harness configured over IPC — the exact
 * status, content-type and body the app returned for the case's request. Request bodies are
 * parsed by Fastify's default parsers, as any Fastify route would.
 */
import Fastify from 'fastify';
import { failChild, runChild } from './ipc.js';

let status = 200;
let contentType = 'application/json; charset=utf-8';
let body: Buffer = Buffer.from('{}');

try {
  const app = Fastify({ logger: false });
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
    url: '/*',
    handler: (_request, reply) => {
      reply.code(status).header('content-type', contentType).send(body);
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the bare server is not listening on a TCP port');
  runChild({
    port: address.port,
    close: () => app.close(),
    onMessage(msg, reply) {
      if (msg.type !== 'configure') return;
      status = msg.response.status;
      contentType = msg.response.contentType;
      body = Buffer.from(msg.response.bodyBase64, 'base64');
      reply({ type: 'configured', id: msg.id });
    },
  });
} catch (err) {
  failChild(err);
}
