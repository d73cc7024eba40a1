CREATE TABLE "catalog_price_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"product_id" text NOT NULL,
	"price_key" text NOT NULL,
	"before_cents" bigint,
	"after_cents" bigint,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalog_settings" ADD COLUMN "price_window_hours" integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE "catalog_settings" ADD COLUMN "allow_vendor_tax_changes" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "catalog_price_changes" ADD CONSTRAINT "catalog_price_changes_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalog_price_changes_lookup_idx" ON "catalog_price_changes" USING btree ("shop_id","product_id","price_key","changed_at");