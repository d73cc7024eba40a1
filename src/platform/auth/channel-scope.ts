/**
 * The channel restriction of an employee (docs/ARCHITECTURE.md "Channel restriction") as data and
 * as one SQL condition, so every query of a channel-scoped resource applies it the same way: lists
 * filter inside their query (count and pages stay exact), reads by id find nothing (404, never
 * 403: another channel's record is answered like a missing one).
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Actor, Ctx } from './types.js';

/** The channels a restricted employee works in (an empty list = none); null = not restricted. */
export function restrictedChannels(actor: Actor | null | undefined): string[] | null {
  return actor?.kind === 'admin' && actor.channelRestricted ? actor.channelIds : null;
}

/**
 * The condition "`channel` is a channel the caller may see": TRUE for every caller that is not a
 * restricted employee (other credentials, jobs and provider events with no actor), FALSE for a
 * restriction to no channel, else `channel IN (…)`. A NULL channel (no channel known) is outside
 * every restriction.
 */
export function channelScope(ctx: Pick<Ctx, 'actor'>, channel: SQLWrapper): SQL {
  const allowed = restrictedChannels(ctx.actor);
  if (allowed === null) return sql`true`;
  if (allowed.length === 0) return sql`false`;
  return sql`(${channel} IN (${sql.join(
    allowed.map((c) => sql`${c}`),
    sql`, `,
  )}) IS TRUE)`;
}

/** Whether the caller is a restricted employee (the scope is not TRUE). */
export const isChannelRestricted = (ctx: Pick<Ctx, 'actor'>): boolean => restrictedChannels(ctx.actor) !== null;
