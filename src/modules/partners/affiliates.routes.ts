import type { FastifyInstance } from 'fastify';

export function affiliateRoutes(_app: FastifyInstance): void {}
