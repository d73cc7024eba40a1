-- Product search per shop: the trigram index of 0002_catalog_search spans every shop, so a
-- common word's index scan also read (and threw away) the other shops' matches. With btree_gin
-- the text shop_id column joins the GIN index, and `shop_id = $1 AND search_text LIKE …` is
-- answered inside the index (both the admin list and the storefront filter say shop_id = $1).
-- Built inside the migration's transaction (no CONCURRENTLY): writes to products wait while it
-- builds.
CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "products_shop_search_idx" ON "products" USING gin ("shop_id", "search_text" gin_trgm_ops) WHERE deleted_at IS NULL;
--> statement-breakpoint
DROP INDEX IF EXISTS "products_search_idx";
