-- Product search (q): case- and accent-insensitive substring search over products.search_text,
-- served by a trigram GIN index. unaccent() is only STABLE, so an IMMUTABLE wrapper with a fixed
-- dictionary makes it usable in index expressions and keeps the search column and the query
-- normalised the same way.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.f_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;
--> statement-breakpoint
-- pg_trgm's GIN operator class cannot be combined with shop_id without btree_gin; the
-- shop_id condition is applied to the (few) rows the trigram index returns.
CREATE INDEX IF NOT EXISTS "products_search_idx" ON "products" USING gin ("search_text" gin_trgm_ops) WHERE deleted_at IS NULL;
