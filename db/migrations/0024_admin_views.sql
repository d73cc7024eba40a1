CREATE TABLE "saved_views" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"user_id" text NOT NULL,
	"resource" text NOT NULL,
	"name" text NOT NULL,
	"query" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "fulfilled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "lines" jsonb;--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "saved_views_owner_idx" ON "saved_views" USING btree ("shop_id","user_id","resource","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_views_name_uq" ON "saved_views" USING btree ("shop_id","user_id","resource","name");--> statement-breakpoint
CREATE INDEX "emails_shop_failed_idx" ON "emails" USING btree ("shop_id","created_at") WHERE status = 'failed';--> statement-breakpoint
CREATE INDEX "payment_events_order_idx" ON "payment_events" USING btree ("shop_id","order_id") WHERE order_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_shop_total_idx" ON "orders" USING btree ("shop_id","total_cents","id");--> statement-breakpoint
CREATE INDEX "orders_shop_number_idx" ON "orders" USING btree ("shop_id",length("number"),"number");--> statement-breakpoint
CREATE INDEX "orders_shop_paid_idx" ON "orders" USING btree ("shop_id","paid_at") WHERE paid_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "refunds_shop_status_idx" ON "refunds" USING btree ("shop_id","status","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_dead_idx" ON "webhook_deliveries" USING btree ("shop_id","updated_at") WHERE status = 'dead';--> statement-breakpoint
CREATE INDEX "webhook_events_ordering_idx" ON "webhook_events" USING btree ("shop_id","ordering_key","created_at") WHERE ordering_key IS NOT NULL;