/**
 * What depends on a channel. Modules that store channel ids (orders, subscriptions, invoices,
 * listings) register a check here; the channels service consults them before a currency change
 * (`commerce` data locks the currency) and before deleting a channel (`reference` blocks it).
 */
import type { Db } from '../../platform/db/client.js';

export type DependencyKind = 'commerce' | 'reference';

export interface ChannelDependency {
  /** Plural noun for messages, e.g. "orders". */
  what: string;
  kinds: DependencyKind[];
  exists(db: Db, shopId: string, channelId: string): Promise<boolean>;
}

const dependencies: ChannelDependency[] = [];

export function registerChannelDependency(dep: ChannelDependency): void {
  if (!dependencies.some((d) => d.what === dep.what)) dependencies.push(dep);
}

/** Names of what of `kind` currently depends on the channel. */
export async function dependentsOf(db: Db, shopId: string, channelId: string, kind: DependencyKind): Promise<string[]> {
  const found: string[] = [];
  for (const dep of dependencies) {
    if (dep.kinds.includes(kind) && (await dep.exists(db, shopId, channelId))) found.push(dep.what);
  }
  return found;
}
