import type { FastifyInstance } from 'fastify';

export function payoutRoutes(_app: FastifyInstance): void {}
