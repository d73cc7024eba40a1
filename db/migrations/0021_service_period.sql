-- The billed period of a subscription payment on its order, and the service period (BG-14) its
-- invoice and credit notes copy at creation (docs/finance.md "Service period"). Null elsewhere.
ALTER TABLE "credit_notes" ADD COLUMN "service_period_start" text;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "service_period_end" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "service_period_start" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "service_period_end" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "service_period_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "service_period_end" timestamp with time zone;