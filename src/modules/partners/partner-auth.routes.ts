import type { FastifyInstance } from 'fastify';

export function partnerAuthRoutes(_app: FastifyInstance): void {}
