/** What the invoice and credit-note routes share: an optional POST body, a rendered file as the reply. */
import type { FastifyReply } from 'fastify';
import type * as del from './delivery.service.js';

/** POSTs whose body is optional: no body means `{}`. */
export const optionalBody = async (request: { body: unknown }) => {
  request.body ??= {};
};

export function sendFile(reply: FastifyReply, file: del.RenderedFile, download = false) {
  return reply
    .type(file.contentType)
    .header('content-disposition', `${download ? 'attachment' : 'inline'}; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store')
    .send(file.body);
}
