ALTER TABLE "checkout_sessions" ADD COLUMN "abo_tax" jsonb;--> statement-breakpoint
ALTER TABLE "abos" ADD COLUMN "tax_category" text;--> statement-breakpoint
ALTER TABLE "abos" ADD COLUMN "tax_exemption_reason" text;--> statement-breakpoint
ALTER TABLE "abos" ADD COLUMN "vat_id_status" text;--> statement-breakpoint
ALTER TABLE "abos" ADD COLUMN "vat_id_checked_at" timestamp with time zone;