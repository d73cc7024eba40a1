import type { FastifyInstance } from 'fastify';

export function vendorRoutes(_app: FastifyInstance): void {}
