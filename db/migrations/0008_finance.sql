CREATE TABLE "accounting_connections" (
	"shop_id" text NOT NULL,
	"provider" text NOT NULL,
	"api_key_encrypted" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounting_syncs" (
	"shop_id" text NOT NULL,
	"order_id" text NOT NULL,
	"provider" text NOT NULL,
	"status" text NOT NULL,
	"provider_id" text,
	"last_error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"job_id" text,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_settings" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"legal_name" text,
	"line1" text,
	"line2" text,
	"postal_code" text,
	"city" text,
	"country" text,
	"vat_id" text,
	"tax_number" text,
	"email" text,
	"phone" text,
	"contact_name" text,
	"bank_name" text,
	"iban" text,
	"bic" text,
	"register_info" text,
	"invoice_footer" text,
	"invoice_number_format" text DEFAULT 'RE-{YYYY}-{NNNNN}' NOT NULL,
	"credit_note_number_format" text DEFAULT 'GS-{YYYY}-{NNNNN}' NOT NULL,
	"payment_terms_days" integer DEFAULT 14 NOT NULL,
	"time_zone" text DEFAULT 'Europe/Berlin' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"invoice_id" text NOT NULL,
	"order_id" text NOT NULL,
	"status" text NOT NULL,
	"number" text,
	"issue_date" text,
	"invoice_number" text NOT NULL,
	"invoice_issue_date" text NOT NULL,
	"currency" text NOT NULL,
	"is_business" boolean NOT NULL,
	"reason" text,
	"seller" jsonb,
	"buyer" jsonb NOT NULL,
	"lines" jsonb NOT NULL,
	"tax_groups" jsonb NOT NULL,
	"net_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	"footer" text,
	"content_hash" text,
	"finalized_at" timestamp with time zone,
	"lexware_voucher_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_attachments" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"email_id" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"order_id" text NOT NULL,
	"order_number" text NOT NULL,
	"status" text NOT NULL,
	"number" text,
	"issue_date" text,
	"due_date" text,
	"service_date" text NOT NULL,
	"currency" text NOT NULL,
	"is_business" boolean NOT NULL,
	"buyer_reference" text,
	"note" text,
	"seller" jsonb,
	"buyer" jsonb NOT NULL,
	"lines" jsonb NOT NULL,
	"tax_groups" jsonb NOT NULL,
	"net_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	"paid_cents" bigint DEFAULT 0 NOT NULL,
	"credited_cents" bigint DEFAULT 0 NOT NULL,
	"footer" text,
	"content_hash" text,
	"finalized_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"sent_to" text,
	"send_count" integer DEFAULT 0 NOT NULL,
	"lexware_voucher_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounting_connections" ADD CONSTRAINT "accounting_connections_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_syncs" ADD CONSTRAINT "accounting_syncs_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_syncs" ADD CONSTRAINT "accounting_syncs_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_settings" ADD CONSTRAINT "company_settings_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_attachments" ADD CONSTRAINT "email_attachments_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounting_connections_pk" ON "accounting_connections" USING btree ("shop_id","provider");--> statement-breakpoint
CREATE UNIQUE INDEX "accounting_syncs_pk" ON "accounting_syncs" USING btree ("shop_id","order_id","provider");--> statement-breakpoint
CREATE INDEX "accounting_syncs_status_idx" ON "accounting_syncs" USING btree ("shop_id","provider","status");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_number_uq" ON "credit_notes" USING btree ("shop_id","number") WHERE number IS NOT NULL;--> statement-breakpoint
CREATE INDEX "credit_notes_shop_created_idx" ON "credit_notes" USING btree ("shop_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "credit_notes_invoice_idx" ON "credit_notes" USING btree ("shop_id","invoice_id");--> statement-breakpoint
CREATE INDEX "email_attachments_email_idx" ON "email_attachments" USING btree ("shop_id","email_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_uq" ON "invoices" USING btree ("shop_id","number") WHERE number IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_open_order_uq" ON "invoices" USING btree ("shop_id","order_id") WHERE status <> 'credited';--> statement-breakpoint
CREATE INDEX "invoices_shop_created_idx" ON "invoices" USING btree ("shop_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_shop_status_idx" ON "invoices" USING btree ("shop_id","status","created_at" DESC NULLS LAST);--> statement-breakpoint
-- GoBD: a final invoice or credit note never changes and is never deleted. Only what happens to it
-- afterwards may move (status by credit notes, credited amount, sending, the accounting voucher id).
CREATE OR REPLACE FUNCTION finance_final_document_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  mutable text[] := ARRAY['status', 'credited_cents', 'updated_at', 'sent_at', 'sent_to', 'send_count', 'lexware_voucher_id'];
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status <> 'draft' THEN
      RAISE EXCEPTION 'final document % of % cannot be deleted', OLD.number, TG_TABLE_NAME USING ERRCODE = 'P0001';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.status <> 'draft' AND (NEW.status = 'draft' OR (to_jsonb(NEW) - mutable) IS DISTINCT FROM (to_jsonb(OLD) - mutable)) THEN
    RAISE EXCEPTION 'final document % of % is immutable', OLD.number, TG_TABLE_NAME USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER invoices_final_guard BEFORE UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION finance_final_document_guard();
--> statement-breakpoint
CREATE TRIGGER credit_notes_final_guard BEFORE UPDATE OR DELETE ON "credit_notes" FOR EACH ROW EXECUTE FUNCTION finance_final_document_guard();
