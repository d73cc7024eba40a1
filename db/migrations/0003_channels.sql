CREATE TABLE "channel_countries" (
	"shop_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"code" text NOT NULL,
	"selected" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"name" text,
	"currency" text,
	"tax_rate" numeric(6, 5),
	"food_tax_rate" numeric(6, 5),
	"books_tax_rate" numeric(6, 5),
	CONSTRAINT "channel_countries_shop_id_channel_id_code_pk" PRIMARY KEY("shop_id","channel_id","code")
);
--> statement-breakpoint
CREATE TABLE "channel_domains" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"domain" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"currency" text NOT NULL,
	"default_country" text NOT NULL,
	"allocation_strategy" text DEFAULT 'priority' NOT NULL,
	"auto_confirm_orders" boolean DEFAULT false NOT NULL,
	"allow_unpaid_orders" boolean DEFAULT false NOT NULL,
	"pending_payment_ttl_hours" integer DEFAULT 24 NOT NULL,
	"path_prefix" text,
	"payment_method_codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "countries" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"currency" text,
	"tax_rate" numeric(6, 5),
	"food_tax_rate" numeric(6, 5),
	"books_tax_rate" numeric(6, 5),
	"is_eu" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_countries" (
	"shop_id" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"currency" text,
	"tax_rate" numeric(6, 5),
	"food_tax_rate" numeric(6, 5),
	"books_tax_rate" numeric(6, 5),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_countries_shop_id_code_pk" PRIMARY KEY("shop_id","code")
);
--> statement-breakpoint
CREATE TABLE "shop_payment_settings" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"method_codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channel_countries" ADD CONSTRAINT "channel_countries_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_countries" ADD CONSTRAINT "channel_countries_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_domains" ADD CONSTRAINT "channel_domains_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_domains" ADD CONSTRAINT "channel_domains_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_countries" ADD CONSTRAINT "shop_countries_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_payment_settings" ADD CONSTRAINT "shop_payment_settings_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "channel_domains_domain_uq" ON "channel_domains" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "channel_domains_channel_idx" ON "channel_domains" USING btree ("shop_id","channel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "channels_slug_uq" ON "channels" USING btree ("shop_id","slug");--> statement-breakpoint
CREATE UNIQUE INDEX "channels_default_uq" ON "channels" USING btree ("shop_id") WHERE is_default;--> statement-breakpoint
CREATE UNIQUE INDEX "channels_prefix_uq" ON "channels" USING btree ("shop_id","path_prefix") WHERE path_prefix IS NOT NULL;--> statement-breakpoint
CREATE INDEX "channels_shop_idx" ON "channels" USING btree ("shop_id","created_at");--> statement-breakpoint
ALTER TABLE "product_channel_listings" ADD CONSTRAINT "pcl_channel_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;