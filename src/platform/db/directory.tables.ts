/**
 * Directory tables (docs/decisions.md "Directory tables"): what must stay unique across every shop,
 * or be found before the shop is known, maps to its shop here. On Citus they are reference tables
 * (one copy on every node): a credential, a domain, an employee e-mail or a provider reference is
 * resolved by one primary-key read, and every statement after it names `shop_id` and is routed to
 * one shard. The owning rows stay in their shop-owned tables; whoever writes an owning row writes
 * its directory row in the same transaction (platform/db/directory.ts). No foreign keys: a
 * reference table cannot point at a distributed one, so the writers keep them in step.
 */
import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * What a credential hash belongs to: a session of one kind, an API token, an e-mailed account
 * token, a publishable key, a partner invite or an abo management link.
 */
export type CredentialDirectoryKind =
  | 'admin_session'
  | 'customer_session'
  | 'vendor_session'
  | 'affiliate_session'
  | 'api_token'
  | 'account_token'
  | 'publishable_key'
  | 'vendor_invite'
  | 'affiliate_invite'
  | 'abo_manage';

/** SHA-256 of a live credential → its shop and owning row. Revoked, used or pruned credentials have none. */
export const credentialDirectory = pgTable(
  'credential_directory',
  {
    hash: text('hash').primaryKey(),
    kind: text('kind').$type<CredentialDirectoryKind>().notNull(),
    shopId: text('shop_id').notNull(),
    /** The owning row (session, token, key, vendor/affiliate, abo) in the shop's table. */
    rowId: text('row_id').notNull(),
  },
  (t) => [index('credential_directory_shop_idx').on(t.shopId)],
);

/** A domain mapped to a channel (spec §2.6: unique across all channel mappings of every shop). */
export const domainDirectory = pgTable(
  'domain_directory',
  {
    domain: text('domain').primaryKey(),
    shopId: text('shop_id').notNull(),
    channelId: text('channel_id').notNull(),
    /** The channel_domains row. */
    rowId: text('row_id').notNull(),
  },
  (t) => [index('domain_directory_shop_idx').on(t.shopId)],
);

/** An employee's e-mail, lower-cased: the admin login finds the employee and its shop here; unique across shops. */
export const employeeEmailDirectory = pgTable(
  'employee_email_directory',
  {
    email: text('email').primaryKey(),
    shopId: text('shop_id').notNull(),
    userId: text('user_id').notNull(),
  },
  (t) => [index('employee_email_directory_shop_idx').on(t.shopId)],
);

export type ProviderRefKind = 'checkout_session' | 'abo' | 'refund';

/** A payment provider's reference (session, subscription, refund) → the shop and row it belongs to. Unique per provider. */
export const providerRefDirectory = pgTable(
  'provider_ref_directory',
  {
    provider: text('provider').notNull(),
    ref: text('ref').notNull(),
    kind: text('kind').$type<ProviderRefKind>().notNull(),
    shopId: text('shop_id').notNull(),
    rowId: text('row_id').notNull(),
  },
  (t) => [
    primaryKey({ name: 'provider_ref_directory_pk', columns: [t.provider, t.ref] }),
    index('provider_ref_directory_shop_idx').on(t.shopId),
  ],
);
