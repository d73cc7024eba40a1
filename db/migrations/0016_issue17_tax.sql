ALTER TABLE "checkout_sessions" ADD COLUMN "shipping_tax_rate" numeric(6, 5);--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "shipping_tax_category" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "vat_id_status" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "vat_id_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "company_settings" ADD COLUMN "oss_registered" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "company_settings" ADD COLUMN "vies_unavailable" text DEFAULT 'charge_vat' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "tax_category" text DEFAULT 'S' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_tax_rate" numeric(6, 5);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_tax_category" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_id_status" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_id_checked_at" timestamp with time zone;