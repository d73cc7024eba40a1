CREATE TABLE "storefront_settings" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"publishable_key_id" text,
	"offered_plan_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "storefront_settings" ADD CONSTRAINT "storefront_settings_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storefront_settings" ADD CONSTRAINT "storefront_settings_publishable_key_id_publishable_keys_id_fk" FOREIGN KEY ("publishable_key_id") REFERENCES "public"."publishable_keys"("id") ON DELETE set null ON UPDATE no action;