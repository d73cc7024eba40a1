ALTER TABLE "products" ADD COLUMN "name_sort" text GENERATED ALWAYS AS (lower(f_unaccent(name))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "products_sort_name_idx" ON "products" USING btree ("shop_id","name_sort","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "products_sort_sku_idx" ON "products" USING btree ("shop_id","sku","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "products_sort_price_idx" ON "products" USING btree ("shop_id","base_price_cents","id") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "products_sort_updated_idx" ON "products" USING btree ("shop_id","updated_at","id") WHERE deleted_at IS NULL;