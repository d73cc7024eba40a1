CREATE TABLE "affiliate_content" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"url" text,
	"image_url" text,
	"body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "affiliates" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"code" text NOT NULL,
	"commission_percent" numeric(5, 2) NOT NULL,
	"status" text NOT NULL,
	"password_hash" text,
	"invite_token_hash" text,
	"invite_expires_at" timestamp with time zone,
	"invited_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_postings" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"transaction_id" text NOT NULL,
	"partner_type" text NOT NULL,
	"partner_id" text NOT NULL,
	"account" text NOT NULL,
	"currency" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"partner_type" text NOT NULL,
	"partner_id" text NOT NULL,
	"currency" text NOT NULL,
	"kind" text NOT NULL,
	"idem_key" text NOT NULL,
	"earning_id" text,
	"payout_id" text,
	"order_id" text,
	"credit_note_id" text,
	"memo" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_earnings" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"partner_type" text NOT NULL,
	"partner_id" text NOT NULL,
	"source_key" text NOT NULL,
	"order_id" text NOT NULL,
	"order_line_id" text,
	"subscription_id" text,
	"subscription_payment_number" integer,
	"currency" text NOT NULL,
	"gross_cents" bigint NOT NULL,
	"net_cents" bigint NOT NULL,
	"commission_cents" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"rate_percent" numeric(5, 2) NOT NULL,
	"rule_id" text,
	"status" text NOT NULL,
	"earned_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"partner_type" text NOT NULL,
	"partner_id" text NOT NULL,
	"currency" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text NOT NULL,
	"requested_by" text NOT NULL,
	"reference" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processing_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_settings" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"vendor_hold_days" integer DEFAULT 14 NOT NULL,
	"affiliate_hold_days" integer DEFAULT 30 NOT NULL,
	"affiliate_min_payout_cents" bigint DEFAULT 5000 NOT NULL,
	"referral_base_url" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vendor_commission_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"vendor_id" text NOT NULL,
	"category_id" text,
	"percent" numeric(5, 2) DEFAULT 0 NOT NULL,
	"fixed_cents" bigint DEFAULT 0 NOT NULL,
	"effective_from" timestamp with time zone NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vendor_statements" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"vendor_id" text NOT NULL,
	"period" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"number" text,
	"vendor_snapshot" jsonb NOT NULL,
	"opening_balance_cents" bigint NOT NULL,
	"closing_balance_cents" bigint NOT NULL,
	"totals" jsonb NOT NULL,
	"entries" jsonb NOT NULL,
	"content_hash" text,
	"finalized_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vendors" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"status" text NOT NULL,
	"password_hash" text,
	"invite_token_hash" text,
	"invite_expires_at" timestamp with time zone,
	"invited_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "affiliate_content" ADD CONSTRAINT "affiliate_content_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "affiliates" ADD CONSTRAINT "affiliates_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_earnings" ADD CONSTRAINT "partner_earnings_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_payouts" ADD CONSTRAINT "partner_payouts_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_settings" ADD CONSTRAINT "partner_settings_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_commission_rules" ADD CONSTRAINT "vendor_commission_rules_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_commission_rules" ADD CONSTRAINT "vendor_commission_rules_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_statements" ADD CONSTRAINT "vendor_statements_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_statements" ADD CONSTRAINT "vendor_statements_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "affiliate_content_shop_idx" ON "affiliate_content" USING btree ("shop_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "affiliates_code_uq" ON "affiliates" USING btree ("shop_id",lower("code"));--> statement-breakpoint
CREATE UNIQUE INDEX "affiliates_email_uq" ON "affiliates" USING btree ("shop_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "affiliates_invite_uq" ON "affiliates" USING btree ("invite_token_hash") WHERE invite_token_hash IS NOT NULL;--> statement-breakpoint
CREATE INDEX "affiliates_shop_created_idx" ON "affiliates" USING btree ("shop_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ledger_postings_balance_idx" ON "ledger_postings" USING btree ("shop_id","partner_type","partner_id","account","currency");--> statement-breakpoint
CREATE INDEX "ledger_postings_tx_idx" ON "ledger_postings" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_idem_uq" ON "ledger_transactions" USING btree ("shop_id","idem_key");--> statement-breakpoint
CREATE INDEX "ledger_transactions_partner_idx" ON "ledger_transactions" USING btree ("shop_id","partner_type","partner_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "ledger_transactions_earning_idx" ON "ledger_transactions" USING btree ("earning_id") WHERE earning_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "partner_earnings_source_uq" ON "partner_earnings" USING btree ("shop_id","source_key");--> statement-breakpoint
CREATE INDEX "partner_earnings_partner_idx" ON "partner_earnings" USING btree ("shop_id","partner_type","partner_id","earned_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "partner_earnings_pending_idx" ON "partner_earnings" USING btree ("shop_id","partner_type","earned_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "partner_earnings_order_idx" ON "partner_earnings" USING btree ("shop_id","order_id");--> statement-breakpoint
CREATE INDEX "partner_payouts_partner_idx" ON "partner_payouts" USING btree ("shop_id","partner_type","partner_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "partner_payouts_list_idx" ON "partner_payouts" USING btree ("shop_id","partner_type","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "partner_payouts_open_affiliate_uq" ON "partner_payouts" USING btree ("shop_id","partner_id") WHERE partner_type = 'affiliate' AND status IN ('pending', 'processing');--> statement-breakpoint
CREATE INDEX "vendor_rules_lookup_idx" ON "vendor_commission_rules" USING btree ("shop_id","vendor_id","effective_from" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "vendor_statements_period_uq" ON "vendor_statements" USING btree ("shop_id","vendor_id","period","currency");--> statement-breakpoint
CREATE UNIQUE INDEX "vendor_statements_number_uq" ON "vendor_statements" USING btree ("shop_id","number") WHERE number IS NOT NULL;--> statement-breakpoint
CREATE INDEX "vendor_statements_list_idx" ON "vendor_statements" USING btree ("shop_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "vendors_email_uq" ON "vendors" USING btree ("shop_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "vendors_invite_uq" ON "vendors" USING btree ("invite_token_hash") WHERE invite_token_hash IS NOT NULL;--> statement-breakpoint
CREATE INDEX "vendors_shop_created_idx" ON "vendors" USING btree ("shop_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Double entry: the postings of one ledger transaction sum to zero, checked at commit.
CREATE OR REPLACE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
BEGIN
  SELECT coalesce(sum(amount_cents), 0) INTO total FROM ledger_postings WHERE transaction_id = NEW.transaction_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % is unbalanced by %', NEW.transaction_id, total USING ERRCODE = 'P0001';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_postings_balanced AFTER INSERT ON ledger_postings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced();
--> statement-breakpoint
-- Append-only: booked entries are never changed or deleted (a correction is a new entry).
-- Deleting a whole shop still cascades (that delete runs inside the foreign-key trigger).
CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'P0001';
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE OR DELETE ON ledger_transactions
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE ON ledger_postings
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
-- A final vendor statement never changes and is never deleted.
CREATE OR REPLACE FUNCTION vendor_statement_final_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status = 'final' AND pg_trigger_depth() < 2 THEN
      RAISE EXCEPTION 'final statement % cannot be deleted', OLD.number USING ERRCODE = 'P0001';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.status = 'final' THEN
    RAISE EXCEPTION 'final statement % is immutable', OLD.number USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER vendor_statements_final_guard BEFORE UPDATE OR DELETE ON vendor_statements
  FOR EACH ROW EXECUTE FUNCTION vendor_statement_final_guard();
