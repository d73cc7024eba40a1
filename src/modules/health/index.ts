/** Liveness and readiness probes. */
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { publicRoute } from '../../platform/auth/presets.js';
import { migrationsApplied } from '../../platform/db/migrate.js';
import { AppError } from '../../platform/errors.js';
import type { Module } from '../../platform/module.js';

export const healthModule: Module = {
  name: 'health',
  group: 'always',
  routes(app, deps) {
    app.get(
      '/health',
      {
        config: publicRoute,
        schema: {
          tags: ['platform'],
          summary: 'The process is up',
          response: { 200: Type.Object({ status: Type.Literal('ok'), role: Type.String() }) },
        },
      },
      async () => ({ status: 'ok' as const, role: deps.config.role }),
    );

    app.get(
      '/ready',
      {
        config: publicRoute,
        schema: {
          tags: ['platform'],
          summary: 'The database is reachable and every migration is applied',
          response: {
            200: Type.Object({ status: Type.Literal('ready'), database: Type.String() }),
          },
        },
      },
      async () => {
        try {
          await deps.database.db.execute(sql`SELECT 1`);
        } catch {
          throw new AppError('database_unavailable', 'The database is not reachable');
        }
        if (!(await migrationsApplied(deps.database.db))) {
          throw new AppError('migrations_pending', 'Database migrations are not applied');
        }
        return { status: 'ready' as const, database: deps.database.kind };
      },
    );
  },
};
