CREATE TABLE "emails" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"transport" text,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "abo_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"product_id" text NOT NULL,
	"name" text NOT NULL,
	"price_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"interval_unit" text NOT NULL,
	"interval_count" integer DEFAULT 1 NOT NULL,
	"trial_days" integer DEFAULT 0 NOT NULL,
	"intro_discount_percent" integer,
	"intro_discount_months" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"stripe_price_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "abos" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"product_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"checkout_session_id" text,
	"customer_id" text,
	"customer_email" text NOT NULL,
	"billing_address" jsonb,
	"status" text NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"cancel_reason" text,
	"canceled_by" text,
	"canceled_at" timestamp with time zone,
	"endet_am" timestamp with time zone,
	"trial_end" timestamp with time zone,
	"billing_anchor" timestamp with time zone NOT NULL,
	"period_index" integer NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"price_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"interval_unit" text NOT NULL,
	"interval_count" integer NOT NULL,
	"intro_discount_percent" integer,
	"intro_price_cents" bigint,
	"intro_until" timestamp with time zone,
	"tax_class" text DEFAULT 'standard' NOT NULL,
	"tax_rate" numeric(6, 5) DEFAULT 0 NOT NULL,
	"payments_count" integer DEFAULT 0 NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"past_due_since" timestamp with time zone,
	"next_retry_at" timestamp with time zone,
	"affiliate_code" text,
	"is_test" boolean NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"card_last4" text,
	"card_fails_later" boolean DEFAULT false NOT NULL,
	"manage_token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "abo_plans" ADD CONSTRAINT "abo_plans_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "abo_plans" ADD CONSTRAINT "abo_plans_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "abos" ADD CONSTRAINT "abos_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "abos" ADD CONSTRAINT "abos_plan_id_abo_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."abo_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "abos" ADD CONSTRAINT "abos_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "emails_shop_created_idx" ON "emails" USING btree ("shop_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "abo_plans_shop_idx" ON "abo_plans" USING btree ("shop_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "abo_plans_product_idx" ON "abo_plans" USING btree ("shop_id","product_id");--> statement-breakpoint
CREATE INDEX "abos_shop_created_idx" ON "abos" USING btree ("shop_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "abos_shop_plan_idx" ON "abos" USING btree ("shop_id","plan_id","status");--> statement-breakpoint
CREATE INDEX "abos_shop_customer_idx" ON "abos" USING btree ("shop_id","customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "abos_manage_token_uq" ON "abos" USING btree ("manage_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "abos_provider_ref_uq" ON "abos" USING btree ("provider","provider_ref") WHERE provider_ref IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "abos_checkout_session_uq" ON "abos" USING btree ("checkout_session_id") WHERE checkout_session_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_subscription_payment_uq" ON "orders" USING btree ("shop_id","subscription_id","subscription_payment_number") WHERE subscription_id IS NOT NULL;