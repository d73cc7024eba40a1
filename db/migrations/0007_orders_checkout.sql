CREATE TABLE "checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"kind" text DEFAULT 'order' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"flow" text DEFAULT 'hosted' NOT NULL,
	"currency" text NOT NULL,
	"customer_email" text NOT NULL,
	"customer_id" text,
	"billing_address" jsonb,
	"shipping_address" jsonb,
	"shipping_method_id" text,
	"lines" jsonb NOT NULL,
	"subtotal_cents" bigint NOT NULL,
	"shipping_cents" bigint DEFAULT 0 NOT NULL,
	"shipping_tax_cents" bigint DEFAULT 0 NOT NULL,
	"tax_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	"requires_shipping" boolean NOT NULL,
	"has_digital" boolean NOT NULL,
	"widerruf_verzicht" boolean DEFAULT false NOT NULL,
	"widerruf_verzicht_at" timestamp with time zone,
	"return_url" text NOT NULL,
	"affiliate_code" text,
	"plan_id" text,
	"provider" text NOT NULL,
	"provider_ref" text,
	"is_test" boolean NOT NULL,
	"stock_reserved" boolean DEFAULT false NOT NULL,
	"order_id" text,
	"subscription_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"provider" text NOT NULL,
	"event_id" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"order_id" text NOT NULL,
	"position" integer NOT NULL,
	"product_id" text NOT NULL,
	"variant_id" text,
	"name" text NOT NULL,
	"sku" text,
	"quantity" integer NOT NULL,
	"unit_price_cents" bigint NOT NULL,
	"line_total_cents" bigint NOT NULL,
	"tax_rate" numeric(6, 5) NOT NULL,
	"tax_cents" bigint NOT NULL,
	"net_cents" bigint NOT NULL,
	"tax_class" text NOT NULL,
	"is_digital" boolean NOT NULL,
	"vendor_id" text
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"number" text NOT NULL,
	"channel_id" text NOT NULL,
	"checkout_session_id" text,
	"customer_id" text,
	"customer_email" text NOT NULL,
	"billing_address" jsonb,
	"shipping_address" jsonb,
	"shipping_method_id" text,
	"status" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"currency" text NOT NULL,
	"subtotal_cents" bigint NOT NULL,
	"shipping_cents" bigint DEFAULT 0 NOT NULL,
	"shipping_tax_cents" bigint DEFAULT 0 NOT NULL,
	"tax_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	"requires_shipping" boolean NOT NULL,
	"widerruf_verzicht" boolean DEFAULT false NOT NULL,
	"widerruf_verzicht_at" timestamp with time zone,
	"affiliate_code" text,
	"subscription_id" text,
	"subscription_payment_number" integer,
	"is_test" boolean DEFAULT false NOT NULL,
	"payment_provider" text,
	"payment_ref" text,
	"paid_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_counters" (
	"shop_id" text NOT NULL,
	"name" text NOT NULL,
	"value" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_counters" ADD CONSTRAINT "shop_counters_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkout_sessions_shop_idx" ON "checkout_sessions" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE INDEX "checkout_sessions_open_expiry_idx" ON "checkout_sessions" USING btree ("expires_at") WHERE status = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_provider_ref_uq" ON "checkout_sessions" USING btree ("provider","provider_ref") WHERE provider_ref IS NOT NULL;--> statement-breakpoint
CREATE INDEX "order_lines_order_idx" ON "order_lines" USING btree ("shop_id","order_id","position");--> statement-breakpoint
CREATE INDEX "order_lines_vendor_idx" ON "order_lines" USING btree ("shop_id","vendor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_number_uq" ON "orders" USING btree ("shop_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_session_uq" ON "orders" USING btree ("checkout_session_id") WHERE checkout_session_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_shop_created_idx" ON "orders" USING btree ("shop_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_shop_status_idx" ON "orders" USING btree ("shop_id","status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_shop_channel_idx" ON "orders" USING btree ("shop_id","channel_id");--> statement-breakpoint
CREATE INDEX "orders_shop_customer_idx" ON "orders" USING btree ("shop_id","customer_id");--> statement-breakpoint
CREATE INDEX "orders_shop_subscription_idx" ON "orders" USING btree ("shop_id","subscription_id");--> statement-breakpoint
CREATE INDEX "orders_pending_expiry_idx" ON "orders" USING btree ("expires_at") WHERE status = 'pending_payment';--> statement-breakpoint
CREATE UNIQUE INDEX "shop_counters_pk" ON "shop_counters" USING btree ("shop_id","name");