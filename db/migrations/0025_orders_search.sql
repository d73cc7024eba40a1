-- HAND-WRITTEN (drizzle cannot express a trigram expression index): the admin order list's `q`
-- (orders.service.ts, orderSearchText) finds part of the customer e-mail or the billing name,
-- case-insensitively, answered inside this index with shop_id first (btree_gin, as
-- 0020_catalog_search_per_shop does for products). The expression must stay exactly the one the
-- query uses. Built inside the migration's transaction (no CONCURRENTLY).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_shop_search_idx" ON "orders" USING gin ("shop_id", (lower("customer_email" || ' ' || coalesce("billing_address"->>'name', ''))) gin_trgm_ops);
