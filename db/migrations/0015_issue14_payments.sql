CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"order_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"credit_note_id" text,
	"failure_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- events were keyed by event id alone; the key is now (provider, event id)
ALTER TABLE "payment_events" DROP CONSTRAINT "payment_events_pkey";--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_provider_event_id_pk" PRIMARY KEY("provider","event_id");--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "type" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "status" text DEFAULT 'processed' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "shop_id" text;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "checkout_session_id" text;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "provider_session_id" text;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "order_id" text;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "amount_cents" bigint;--> statement-breakpoint
ALTER TABLE "payment_events" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("shop_id","order_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_provider_ref_uq" ON "refunds" USING btree ("provider","provider_ref") WHERE provider_ref IS NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_sessions_idempotency_uq" ON "checkout_sessions" USING btree ("shop_id","idempotency_key") WHERE idempotency_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_events_shop_status_idx" ON "payment_events" USING btree ("shop_id","status","received_at");