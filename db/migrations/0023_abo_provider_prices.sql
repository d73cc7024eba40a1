CREATE TABLE "abo_provider_coupons" (
	"shop_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"provider" text NOT NULL,
	"is_test" boolean NOT NULL,
	"percent_off" integer NOT NULL,
	"duration_months" integer NOT NULL,
	"ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "abo_provider_coupons_pk" PRIMARY KEY("plan_id","provider","is_test","percent_off","duration_months")
);
--> statement-breakpoint
CREATE TABLE "abo_provider_prices" (
	"shop_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"provider" text NOT NULL,
	"is_test" boolean NOT NULL,
	"currency" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"interval_unit" text NOT NULL,
	"interval_count" integer NOT NULL,
	"name" text NOT NULL,
	"ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "abo_provider_prices_pk" PRIMARY KEY("plan_id","provider","is_test","currency","amount_cents","interval_unit","interval_count","name")
);
--> statement-breakpoint
ALTER TABLE "abo_provider_coupons" ADD CONSTRAINT "abo_provider_coupons_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "abo_provider_coupons" ADD CONSTRAINT "abo_provider_coupons_plan_id_abo_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."abo_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "abo_provider_prices" ADD CONSTRAINT "abo_provider_prices_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "abo_provider_prices" ADD CONSTRAINT "abo_provider_prices_plan_id_abo_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."abo_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "abo_provider_coupons_shop_idx" ON "abo_provider_coupons" USING btree ("shop_id");--> statement-breakpoint
CREATE INDEX "abo_provider_prices_shop_idx" ON "abo_provider_prices" USING btree ("shop_id");--> statement-breakpoint
ALTER TABLE "abo_plans" DROP COLUMN "stripe_price_id";