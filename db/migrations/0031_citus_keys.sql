-- Issue 28: the schema distributes on Citus as it is (docs/decisions.md, "Keys for Citus").
-- Every shop-owned table is keyed (shop_id, id); every unique index and foreign key includes
-- shop_id; no ON DELETE SET NULL (the service nulls the references in the deleting transaction);
-- payment_events loses its key to shops (a coordinator-local table cannot reference a distributed
-- one). Applies to a database with data: the dependent foreign keys go first, then the primary
-- keys are swapped, then the keys come back composite. A row whose shop_id differs from the shop
-- of the row it references makes this migration fail (such a row was wrong before).
ALTER TABLE "saved_views" DROP CONSTRAINT "saved_views_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "catalog_skus" DROP CONSTRAINT "catalog_skus_product_id_products_id_fk";
--> statement-breakpoint
ALTER TABLE "catalog_skus" DROP CONSTRAINT "catalog_skus_variant_id_product_variants_id_fk";
--> statement-breakpoint
ALTER TABLE "categories" DROP CONSTRAINT "categories_parent_id_categories_id_fk";
--> statement-breakpoint
ALTER TABLE "product_channel_listings" DROP CONSTRAINT "pcl_product_fk";
--> statement-breakpoint
ALTER TABLE "product_channel_listings" DROP CONSTRAINT "pcl_channel_fk";
--> statement-breakpoint
ALTER TABLE "product_channel_listings" DROP CONSTRAINT "pcl_variant_fk";
--> statement-breakpoint
ALTER TABLE "product_images" DROP CONSTRAINT "product_images_product_id_products_id_fk";
--> statement-breakpoint
ALTER TABLE "product_images" DROP CONSTRAINT "product_images_variant_id_product_variants_id_fk";
--> statement-breakpoint
ALTER TABLE "product_variants" DROP CONSTRAINT "product_variants_product_id_products_id_fk";
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_category_id_categories_id_fk";
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_brand_id_brands_id_fk";
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_supplier_id_suppliers_id_fk";
--> statement-breakpoint
ALTER TABLE "channel_countries" DROP CONSTRAINT "channel_countries_channel_id_channels_id_fk";
--> statement-breakpoint
ALTER TABLE "channel_domains" DROP CONSTRAINT "channel_domains_channel_id_channels_id_fk";
--> statement-breakpoint
ALTER TABLE "checkout_sessions" DROP CONSTRAINT "checkout_sessions_channel_id_channels_id_fk";
--> statement-breakpoint
ALTER TABLE "payment_events" DROP CONSTRAINT "payment_events_shop_id_shops_id_fk";
--> statement-breakpoint
ALTER TABLE "abo_events" DROP CONSTRAINT "abo_events_abo_id_abos_id_fk";
--> statement-breakpoint
ALTER TABLE "abo_plans" DROP CONSTRAINT "abo_plans_product_id_products_id_fk";
--> statement-breakpoint
ALTER TABLE "abo_provider_coupons" DROP CONSTRAINT "abo_provider_coupons_plan_id_abo_plans_id_fk";
--> statement-breakpoint
ALTER TABLE "abo_provider_prices" DROP CONSTRAINT "abo_provider_prices_plan_id_abo_plans_id_fk";
--> statement-breakpoint
ALTER TABLE "abos" DROP CONSTRAINT "abos_plan_id_abo_plans_id_fk";
--> statement-breakpoint
ALTER TABLE "abos" DROP CONSTRAINT "abos_channel_id_channels_id_fk";
--> statement-breakpoint
ALTER TABLE "accounting_syncs" DROP CONSTRAINT "accounting_syncs_order_id_orders_id_fk";
--> statement-breakpoint
ALTER TABLE "credit_notes" DROP CONSTRAINT "credit_notes_invoice_id_invoices_id_fk";
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_order_id_orders_id_fk";
--> statement-breakpoint
ALTER TABLE "order_lines" DROP CONSTRAINT "order_lines_order_id_orders_id_fk";
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_channel_id_channels_id_fk";
--> statement-breakpoint
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_order_id_orders_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_postings" DROP CONSTRAINT "ledger_postings_transaction_id_ledger_transactions_id_fk";
--> statement-breakpoint
ALTER TABLE "vendor_commission_rules" DROP CONSTRAINT "vendor_commission_rules_vendor_id_vendors_id_fk";
--> statement-breakpoint
ALTER TABLE "vendor_statements" DROP CONSTRAINT "vendor_statements_vendor_id_vendors_id_fk";
--> statement-breakpoint
ALTER TABLE "storefront_settings" DROP CONSTRAINT "storefront_settings_publishable_key_id_publishable_keys_id_fk";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk";
--> statement-breakpoint
DROP INDEX "channel_domains_domain_uq";
--> statement-breakpoint
DROP INDEX "checkout_sessions_provider_ref_uq";
--> statement-breakpoint
DROP INDEX "abos_manage_token_uq";
--> statement-breakpoint
DROP INDEX "abos_provider_ref_uq";
--> statement-breakpoint
DROP INDEX "abos_checkout_session_uq";
--> statement-breakpoint
DROP INDEX "account_tokens_hash_uq";
--> statement-breakpoint
DROP INDEX "api_tokens_hash_uq";
--> statement-breakpoint
DROP INDEX "publishable_keys_key_uq";
--> statement-breakpoint
DROP INDEX "sessions_token_uq";
--> statement-breakpoint
DROP INDEX "users_email_uq";
--> statement-breakpoint
DROP INDEX "orders_session_uq";
--> statement-breakpoint
DROP INDEX "refunds_provider_ref_uq";
--> statement-breakpoint
DROP INDEX "affiliates_invite_uq";
--> statement-breakpoint
DROP INDEX "vendors_invite_uq";
--> statement-breakpoint
ALTER TABLE "email_attachments" DROP CONSTRAINT "email_attachments_pkey";
--> statement-breakpoint
ALTER TABLE "emails" DROP CONSTRAINT "emails_pkey";
--> statement-breakpoint
ALTER TABLE "saved_views" DROP CONSTRAINT "saved_views_pkey";
--> statement-breakpoint
ALTER TABLE "brands" DROP CONSTRAINT "brands_pkey";
--> statement-breakpoint
ALTER TABLE "catalog_price_changes" DROP CONSTRAINT "catalog_price_changes_pkey";
--> statement-breakpoint
ALTER TABLE "categories" DROP CONSTRAINT "categories_pkey";
--> statement-breakpoint
ALTER TABLE "product_images" DROP CONSTRAINT "product_images_pkey";
--> statement-breakpoint
ALTER TABLE "product_variants" DROP CONSTRAINT "product_variants_pkey";
--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_pkey";
--> statement-breakpoint
ALTER TABLE "suppliers" DROP CONSTRAINT "suppliers_pkey";
--> statement-breakpoint
ALTER TABLE "channel_domains" DROP CONSTRAINT "channel_domains_pkey";
--> statement-breakpoint
ALTER TABLE "channels" DROP CONSTRAINT "channels_pkey";
--> statement-breakpoint
ALTER TABLE "checkout_sessions" DROP CONSTRAINT "checkout_sessions_pkey";
--> statement-breakpoint
ALTER TABLE "abo_events" DROP CONSTRAINT "abo_events_pkey";
--> statement-breakpoint
ALTER TABLE "abo_plans" DROP CONSTRAINT "abo_plans_pkey";
--> statement-breakpoint
ALTER TABLE "abos" DROP CONSTRAINT "abos_pkey";
--> statement-breakpoint
ALTER TABLE "credit_notes" DROP CONSTRAINT "credit_notes_pkey";
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_pkey";
--> statement-breakpoint
ALTER TABLE "account_tokens" DROP CONSTRAINT "account_tokens_pkey";
--> statement-breakpoint
ALTER TABLE "api_tokens" DROP CONSTRAINT "api_tokens_pkey";
--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_pkey";
--> statement-breakpoint
ALTER TABLE "publishable_keys" DROP CONSTRAINT "publishable_keys_pkey";
--> statement-breakpoint
ALTER TABLE "sessions" DROP CONSTRAINT "sessions_pkey";
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_pkey";
--> statement-breakpoint
ALTER TABLE "order_lines" DROP CONSTRAINT "order_lines_pkey";
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_pkey";
--> statement-breakpoint
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_pkey";
--> statement-breakpoint
ALTER TABLE "affiliate_content" DROP CONSTRAINT "affiliate_content_pkey";
--> statement-breakpoint
ALTER TABLE "affiliates" DROP CONSTRAINT "affiliates_pkey";
--> statement-breakpoint
ALTER TABLE "ledger_postings" DROP CONSTRAINT "ledger_postings_pkey";
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_pkey";
--> statement-breakpoint
ALTER TABLE "partner_earnings" DROP CONSTRAINT "partner_earnings_pkey";
--> statement-breakpoint
ALTER TABLE "partner_payouts" DROP CONSTRAINT "partner_payouts_pkey";
--> statement-breakpoint
ALTER TABLE "vendor_commission_rules" DROP CONSTRAINT "vendor_commission_rules_pkey";
--> statement-breakpoint
ALTER TABLE "vendor_statements" DROP CONSTRAINT "vendor_statements_pkey";
--> statement-breakpoint
ALTER TABLE "vendors" DROP CONSTRAINT "vendors_pkey";
--> statement-breakpoint
ALTER TABLE "shipping_methods" DROP CONSTRAINT "shipping_methods_pkey";
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_pkey";
--> statement-breakpoint
ALTER TABLE "webhook_events" DROP CONSTRAINT "webhook_events_pkey";
--> statement-breakpoint
ALTER TABLE "email_attachments" ADD CONSTRAINT "email_attachments_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "brands" ADD CONSTRAINT "brands_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "catalog_price_changes" ADD CONSTRAINT "catalog_price_changes_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "suppliers" ADD CONSTRAINT "suppliers_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "channel_domains" ADD CONSTRAINT "channel_domains_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "abo_events" ADD CONSTRAINT "abo_events_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "abo_plans" ADD CONSTRAINT "abo_plans_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "abos" ADD CONSTRAINT "abos_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "accounting_connections" ADD CONSTRAINT "accounting_connections_pk" PRIMARY KEY USING INDEX "accounting_connections_pk";
--> statement-breakpoint
ALTER TABLE "accounting_syncs" ADD CONSTRAINT "accounting_syncs_pk" PRIMARY KEY USING INDEX "accounting_syncs_pk";
--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "publishable_keys" ADD CONSTRAINT "publishable_keys_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "shop_counters" ADD CONSTRAINT "shop_counters_pk" PRIMARY KEY USING INDEX "shop_counters_pk";
--> statement-breakpoint
ALTER TABLE "affiliate_content" ADD CONSTRAINT "affiliate_content_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "affiliates" ADD CONSTRAINT "affiliates_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "partner_earnings" ADD CONSTRAINT "partner_earnings_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "partner_payouts" ADD CONSTRAINT "partner_payouts_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "vendor_commission_rules" ADD CONSTRAINT "vendor_commission_rules_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "vendor_statements" ADD CONSTRAINT "vendor_statements_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD CONSTRAINT "shipping_methods_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_pkey" PRIMARY KEY("shop_id","id");
--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_user_fk" FOREIGN KEY ("shop_id","user_id") REFERENCES "public"."users"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "catalog_skus" ADD CONSTRAINT "catalog_skus_product_fk" FOREIGN KEY ("shop_id","product_id") REFERENCES "public"."products"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "catalog_skus" ADD CONSTRAINT "catalog_skus_variant_fk" FOREIGN KEY ("shop_id","variant_id") REFERENCES "public"."product_variants"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_fk" FOREIGN KEY ("shop_id","parent_id") REFERENCES "public"."categories"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_channel_listings" ADD CONSTRAINT "pcl_product_fk" FOREIGN KEY ("shop_id","product_id") REFERENCES "public"."products"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_channel_listings" ADD CONSTRAINT "pcl_channel_fk" FOREIGN KEY ("shop_id","channel_id") REFERENCES "public"."channels"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_channel_listings" ADD CONSTRAINT "pcl_variant_fk" FOREIGN KEY ("shop_id","variant_id") REFERENCES "public"."product_variants"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_product_fk" FOREIGN KEY ("shop_id","product_id") REFERENCES "public"."products"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_variant_fk" FOREIGN KEY ("shop_id","variant_id") REFERENCES "public"."product_variants"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_product_fk" FOREIGN KEY ("shop_id","product_id") REFERENCES "public"."products"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_category_fk" FOREIGN KEY ("shop_id","category_id") REFERENCES "public"."categories"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_brand_fk" FOREIGN KEY ("shop_id","brand_id") REFERENCES "public"."brands"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_supplier_fk" FOREIGN KEY ("shop_id","supplier_id") REFERENCES "public"."suppliers"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "channel_countries" ADD CONSTRAINT "channel_countries_channel_fk" FOREIGN KEY ("shop_id","channel_id") REFERENCES "public"."channels"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "channel_domains" ADD CONSTRAINT "channel_domains_channel_fk" FOREIGN KEY ("shop_id","channel_id") REFERENCES "public"."channels"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_channel_fk" FOREIGN KEY ("shop_id","channel_id") REFERENCES "public"."channels"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "abo_events" ADD CONSTRAINT "abo_events_abo_fk" FOREIGN KEY ("shop_id","abo_id") REFERENCES "public"."abos"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "abo_plans" ADD CONSTRAINT "abo_plans_product_fk" FOREIGN KEY ("shop_id","product_id") REFERENCES "public"."products"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "abo_provider_coupons" ADD CONSTRAINT "abo_provider_coupons_plan_fk" FOREIGN KEY ("shop_id","plan_id") REFERENCES "public"."abo_plans"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "abo_provider_prices" ADD CONSTRAINT "abo_provider_prices_plan_fk" FOREIGN KEY ("shop_id","plan_id") REFERENCES "public"."abo_plans"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "abos" ADD CONSTRAINT "abos_plan_fk" FOREIGN KEY ("shop_id","plan_id") REFERENCES "public"."abo_plans"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "abos" ADD CONSTRAINT "abos_channel_fk" FOREIGN KEY ("shop_id","channel_id") REFERENCES "public"."channels"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "accounting_syncs" ADD CONSTRAINT "accounting_syncs_order_fk" FOREIGN KEY ("shop_id","order_id") REFERENCES "public"."orders"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_fk" FOREIGN KEY ("shop_id","invoice_id") REFERENCES "public"."invoices"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_fk" FOREIGN KEY ("shop_id","order_id") REFERENCES "public"."orders"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_fk" FOREIGN KEY ("shop_id","order_id") REFERENCES "public"."orders"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_channel_fk" FOREIGN KEY ("shop_id","channel_id") REFERENCES "public"."channels"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_fk" FOREIGN KEY ("shop_id","order_id") REFERENCES "public"."orders"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_transaction_fk" FOREIGN KEY ("shop_id","transaction_id") REFERENCES "public"."ledger_transactions"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "vendor_commission_rules" ADD CONSTRAINT "vendor_commission_rules_vendor_fk" FOREIGN KEY ("shop_id","vendor_id") REFERENCES "public"."vendors"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "vendor_statements" ADD CONSTRAINT "vendor_statements_vendor_fk" FOREIGN KEY ("shop_id","vendor_id") REFERENCES "public"."vendors"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "storefront_settings" ADD CONSTRAINT "storefront_settings_publishable_key_fk" FOREIGN KEY ("shop_id","publishable_key_id") REFERENCES "public"."publishable_keys"("shop_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_fk" FOREIGN KEY ("shop_id","event_id") REFERENCES "public"."webhook_events"("shop_id","id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "channel_domains_domain_uq" ON "channel_domains" USING btree ("shop_id","domain");
--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_provider_ref_uq" ON "checkout_sessions" USING btree ("shop_id","provider","provider_ref") WHERE provider_ref IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "abos_manage_token_uq" ON "abos" USING btree ("shop_id","manage_token_hash");
--> statement-breakpoint
CREATE UNIQUE INDEX "abos_provider_ref_uq" ON "abos" USING btree ("shop_id","provider","provider_ref") WHERE provider_ref IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "abos_checkout_session_uq" ON "abos" USING btree ("shop_id","checkout_session_id") WHERE checkout_session_id IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "account_tokens_hash_uq" ON "account_tokens" USING btree ("shop_id","token_hash");
--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_hash_uq" ON "api_tokens" USING btree ("shop_id","token_hash");
--> statement-breakpoint
CREATE UNIQUE INDEX "publishable_keys_key_uq" ON "publishable_keys" USING btree ("shop_id","key");
--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_uq" ON "sessions" USING btree ("shop_id","token_hash");
--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree ("shop_id",lower("email"));
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_session_uq" ON "orders" USING btree ("shop_id","checkout_session_id") WHERE checkout_session_id IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_provider_ref_uq" ON "refunds" USING btree ("shop_id","provider","provider_ref") WHERE provider_ref IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "affiliates_invite_uq" ON "affiliates" USING btree ("shop_id","invite_token_hash") WHERE invite_token_hash IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "vendors_invite_uq" ON "vendors" USING btree ("shop_id","invite_token_hash") WHERE invite_token_hash IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "abo_provider_coupons" DROP CONSTRAINT "abo_provider_coupons_pk";
--> statement-breakpoint
ALTER TABLE "abo_provider_coupons" ADD CONSTRAINT "abo_provider_coupons_pk" PRIMARY KEY("shop_id","plan_id","provider","is_test","percent_off","duration_months");
--> statement-breakpoint
ALTER TABLE "abo_provider_prices" DROP CONSTRAINT "abo_provider_prices_pk";
--> statement-breakpoint
ALTER TABLE "abo_provider_prices" ADD CONSTRAINT "abo_provider_prices_pk" PRIMARY KEY("shop_id","plan_id","provider","is_test","currency","amount_cents","interval_unit","interval_count","name");
--> statement-breakpoint
-- The ledger's balance check reads the postings of its own shop only (a router query on Citus).
CREATE OR REPLACE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
BEGIN
  SELECT coalesce(sum(amount_cents), 0) INTO total FROM ledger_postings
    WHERE shop_id = NEW.shop_id AND transaction_id = NEW.transaction_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % is unbalanced by %', NEW.transaction_id, total USING ERRCODE = 'P0001';
  END IF;
  RETURN NULL;
END $$;
