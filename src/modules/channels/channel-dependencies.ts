/**
 * What depends on a channel. Modules that store channel ids (orders, subscriptions, checkout
 * sessions, listings) each export a check; app.ts lists them in the `channelDependencies` hook
 * list (platform/hooks.ts), and the channels service consults them before a currency change
 * (`commerce` data locks the currency) and before deleting a channel (`reference` blocks it).
 */
import type { Ctx } from '../../platform/auth/types.js';
import { type ChannelDependencyKind, hookList } from '../../platform/hooks.js';

/** Names of what of `kind` currently depends on the channel. */
export async function dependentsOf(ctx: Ctx, channelId: string, kind: ChannelDependencyKind): Promise<string[]> {
  const found: string[] = [];
  for (const dep of hookList('channelDependencies')) {
    if (dep.kinds.includes(kind) && (await dep.exists(ctx, channelId))) found.push(dep.what);
  }
  return found;
}
