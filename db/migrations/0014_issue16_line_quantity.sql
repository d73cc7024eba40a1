ALTER TABLE "shops" ADD COLUMN "max_line_quantity" integer DEFAULT 20 NOT NULL;--> statement-breakpoint
-- DESIGN §2: every shop has exactly one default channel. Shops created before it without any
-- channel get theirs now (EUR, DE, named after the shop); a shop with channels already has one.
INSERT INTO "channels" ("id", "shop_id", "name", "slug", "is_default", "is_active", "currency", "default_country")
SELECT 'chan_' || substr(md5(s."id" || clock_timestamp()::text), 1, 26), s."id", s."name",
       'default-' || substr(md5(s."id"), 1, 8), true, true, 'EUR', 'DE'
FROM "shops" s
WHERE NOT EXISTS (SELECT 1 FROM "channels" c WHERE c."shop_id" = s."id" AND c."is_default");
