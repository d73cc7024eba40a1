/** `POST /api/store/abo-sessions` (docs/digital.md): a hosted subscription checkout for a plan. */
import type { TypedApp } from '../../platform/http/typed-app.js';
import type { AppDeps } from '../../platform/module.js';
import { channelFor, limitSessionCreation } from '../checkout/index.js';
import { AboSessionCreate, AboSessionOut } from './abo-sessions.schemas.js';
import { createAboSession } from './create-abo-session.js';

export function aboSessionRoutes(app: TypedApp, deps: AppDeps): void {
  for (const prefix of ['', '/:prefix']) {
    app.post(
      `${prefix}/api/store/abo-sessions`,
      {
        config: { auth: { accepts: ['publishable'], gate: 'digital', signedInCustomer: true } },
        schema: {
          tags: ['digital'],
          summary: 'Create a hosted subscription checkout session for a plan (docs/digital.md)',
          ...(prefix ? { hide: true } : {}),
          body: AboSessionCreate,
          response: { 201: AboSessionOut },
        },
      },
      async (request, reply) => {
        await limitSessionCreation(request.ctx, request.ip);
        const channel = await channelFor(request);
        reply.header('x-channel-id', channel.id);
        const out = await createAboSession(request.ctx, channel, request.body, deps);
        return reply.code(201).send(out);
      },
    );
  }
}
