/**
 * All business time comes from here (docs/ARCHITECTURE.md). `real` is the wall clock; `simulated` adds an
 * offset kept in the database, so every process agrees once it has refreshed.
 */
import { sql } from 'drizzle-orm';
import type { ClockMode } from '../config.js';
import type { Db } from './db/client.js';
import { query } from './db/query.js';

export class Clock {
  private offsetMs = 0;

  constructor(readonly mode: ClockMode) {}

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Reloads the simulated offset; a no-op on the real clock. */
  async refresh(db: Db): Promise<void> {
    if (this.mode !== 'simulated') return;
    const rows = await query<{ offset_ms: number }>(db, sql`SELECT offset_ms FROM clock_state WHERE id = 1`);
    this.offsetMs = Number(rows[0]?.offset_ms ?? 0);
  }

  /** Moves simulated time forward and returns the new time. */
  async advance(db: Db, seconds: number): Promise<Date> {
    if (this.mode !== 'simulated') throw new Error('the clock is not simulated');
    const rows = await query<{ offset_ms: number }>(
      db,
      sql`INSERT INTO clock_state (id, offset_ms) VALUES (1, ${seconds * 1000})
          ON CONFLICT (id) DO UPDATE SET offset_ms = clock_state.offset_ms + ${seconds * 1000}
          RETURNING offset_ms`,
    );
    this.offsetMs = Number(rows[0]?.offset_ms ?? 0);
    return this.now();
  }
}
