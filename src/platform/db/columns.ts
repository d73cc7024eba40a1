/** Column builders the modules' tables share: money in integer cents, time with its zone. */
import { bigint, timestamp } from 'drizzle-orm/pg-core';

/** An amount in cents (bigint, read as a JS number). */
export const cents = (name: string) => bigint(name, { mode: 'number' });
/** A point in time (timestamptz). */
export const ts = (name: string) => timestamp(name, { withTimezone: true });
