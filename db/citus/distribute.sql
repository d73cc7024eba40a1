-- Distributes the schema on Citus (issue 28; docs/decisions.md, "Keys for Citus").
--
-- Applied by the migrate step (src/platform/db/migrate.ts) after the migrations, only when the
-- database has the citus extension; plain PostgreSQL and PGlite never run it. Idempotent: a table
-- already in pg_dist_partition is skipped, so it runs on every start and distributes what a new
-- migration added. Every public table is named in exactly one of the three lists below
-- (test/foundation/citus-schema.test.ts reads them and fails on a table that is missing).
--
-- The storefront_bump triggers (catalog and channel tables → storefront_versions), the finance
-- document guards, the vendor statement guard and the ledger's append-only and balance triggers
-- only read or write rows of the shop of the row that fired them (storefront_versions and
-- ledger_postings by that row's shop_id, shops by its id): on Citus they run on the shard of that
-- shop, co-located with every row they touch. Citus refuses to distribute tables with triggers
-- unless citus.enable_unsafe_triggers is on; it is set for this transaction only.
SET LOCAL citus.enable_unsafe_triggers = on;

DO $distribute$
DECLARE
  -- Replicated to every node: small, global, read by every shop.
  reference_tables text[] := ARRAY[
    'countries',        -- shared ISO countries (seeded by migration)
    'platform_secrets', -- the platform's own secrets (no shop)
    'clock_state',      -- the simulated clock, one row
    -- Directories (migration 0032, docs/decisions.md "Directory tables"): what must stay unique
    -- across shops or be found before the shop is known. Each lookup reads one row here, then
    -- names its shop on every statement that follows.
    'credential_directory',     -- session, API token, account token, publishable key, invite and manage-link hashes → shop
    'domain_directory',         -- channel domains (unique across all shops, spec §2.6) → shop, channel
    'employee_email_directory', -- employee e-mails (sign-in finds the shop by it) → shop, user
    'provider_ref_directory'    -- payment provider references (webhooks) → shop, row
  ];
  -- Sharded by shop and co-located with shops: every row of a shop lives on its shop's shard.
  -- Listed parents first (a foreign key needs its referenced table distributed before it).
  distributed_tables text[] := ARRAY[
    'shops', -- distributed on id (the shop id); every other table on shop_id
    'channels',
    'channel_domains',
    'shop_countries',
    'channel_countries',
    'shop_payment_settings',
    'shipping_methods',
    'categories',
    'brands',
    'suppliers',
    'products',
    'product_variants',
    'product_images',
    'catalog_skus',
    'product_channel_listings',
    'catalog_settings',
    'catalog_price_changes',
    'storefront_versions',
    'users',
    'sessions',
    'api_tokens',
    'publishable_keys',
    'storefront_settings',
    'customers',
    'account_tokens',
    'idempotency_keys',
    'saved_views',
    'checkout_sessions',
    'orders',
    'order_lines',
    'shop_counters',
    'refunds',
    'company_settings',
    'invoices',
    'credit_notes',
    'accounting_connections',
    'accounting_syncs',
    'partner_settings',
    'vendors',
    'vendor_commission_rules',
    'affiliates',
    'affiliate_content',
    'partner_earnings',
    'ledger_transactions',
    'ledger_postings',
    'partner_payouts',
    'vendor_statements',
    'abo_plans',
    'abo_provider_prices',
    'abo_provider_coupons',
    'abos',
    'abo_events',
    'webhook_endpoints',
    'webhook_events',
    'webhook_deliveries',
    'emails',
    'email_attachments'
  ];
  -- Coordinator-local: plain tables on the coordinator, never distributed. They hold rows without
  -- a shop (a job of the platform, a provider event naming no session of ours, a rate-limit bucket
  -- of an IP) and are read by the coordinator's processes alone; none has a foreign key to a
  -- distributed table (a local table cannot reference one).
  local_tables text[] := ARRAY[
    'jobs',           -- the durable job queue: platform jobs have no shop; claimed with SKIP LOCKED
    'payment_events', -- provider webhook events, deduplicated by (provider, event_id) before the shop is known
    'rate_limits'     -- fixed-window counters keyed by bucket (IP, credential), not by shop
  ];
  t text;
BEGIN
  FOREACH t IN ARRAY reference_tables LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = t::regclass) THEN
      PERFORM create_reference_table(t);
    END IF;
  END LOOP;
  FOREACH t IN ARRAY distributed_tables LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = t::regclass) THEN
      IF t = 'shops' THEN
        PERFORM create_distributed_table('shops', 'id');
      ELSE
        PERFORM create_distributed_table(t, 'shop_id', colocate_with => 'shops');
      END IF;
    END IF;
  END LOOP;
  -- a local table that somehow became distributed is a mistake of an operator: say so
  FOREACH t IN ARRAY local_tables LOOP
    IF EXISTS (
      SELECT 1 FROM citus_tables WHERE table_name = t::regclass AND citus_table_type IN ('distributed', 'reference')
    ) THEN
      RAISE EXCEPTION 'table % must stay coordinator-local (db/citus/distribute.sql)', t;
    END IF;
  END LOOP;
END
$distribute$;
