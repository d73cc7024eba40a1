CREATE TABLE "credential_directory" (
	"hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"shop_id" text NOT NULL,
	"row_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domain_directory" (
	"domain" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"row_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "employee_email_directory" (
	"email" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"user_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_ref_directory" (
	"provider" text NOT NULL,
	"ref" text NOT NULL,
	"kind" text NOT NULL,
	"shop_id" text NOT NULL,
	"row_id" text NOT NULL,
	CONSTRAINT "provider_ref_directory_pk" PRIMARY KEY("provider","ref")
);
--> statement-breakpoint
CREATE INDEX "credential_directory_shop_idx" ON "credential_directory" USING btree ("shop_id");--> statement-breakpoint
CREATE INDEX "domain_directory_shop_idx" ON "domain_directory" USING btree ("shop_id");--> statement-breakpoint
CREATE INDEX "employee_email_directory_shop_idx" ON "employee_email_directory" USING btree ("shop_id");--> statement-breakpoint
CREATE INDEX "provider_ref_directory_shop_idx" ON "provider_ref_directory" USING btree ("shop_id");--> statement-breakpoint
-- Backfill (hand-written): every live credential, mapped domain, employee e-mail and provider
-- reference of the existing rows. Hashes are hex SHA-256, as platform/crypto.ts sha256() writes them.
INSERT INTO "credential_directory" ("hash", "kind", "shop_id", "row_id")
SELECT token_hash, kind || '_session', shop_id, id FROM sessions WHERE revoked_at IS NULL;--> statement-breakpoint
INSERT INTO "credential_directory" ("hash", "kind", "shop_id", "row_id")
SELECT token_hash, 'api_token', shop_id, id FROM api_tokens WHERE revoked_at IS NULL;--> statement-breakpoint
INSERT INTO "credential_directory" ("hash", "kind", "shop_id", "row_id")
SELECT token_hash, 'account_token', shop_id, id FROM account_tokens WHERE used_at IS NULL;--> statement-breakpoint
INSERT INTO "credential_directory" ("hash", "kind", "shop_id", "row_id")
SELECT encode(sha256(convert_to(key, 'UTF8')), 'hex'), 'publishable_key', shop_id, id FROM publishable_keys WHERE revoked_at IS NULL;--> statement-breakpoint
INSERT INTO "credential_directory" ("hash", "kind", "shop_id", "row_id")
SELECT invite_token_hash, 'vendor_invite', shop_id, id FROM vendors WHERE invite_token_hash IS NOT NULL;--> statement-breakpoint
INSERT INTO "credential_directory" ("hash", "kind", "shop_id", "row_id")
SELECT invite_token_hash, 'affiliate_invite', shop_id, id FROM affiliates WHERE invite_token_hash IS NOT NULL;--> statement-breakpoint
INSERT INTO "credential_directory" ("hash", "kind", "shop_id", "row_id")
SELECT manage_token_hash, 'abo_manage', shop_id, id FROM abos;--> statement-breakpoint
INSERT INTO "domain_directory" ("domain", "shop_id", "channel_id", "row_id")
SELECT domain, shop_id, channel_id, id FROM channel_domains;--> statement-breakpoint
INSERT INTO "employee_email_directory" ("email", "shop_id", "user_id")
SELECT lower(email), shop_id, id FROM users;--> statement-breakpoint
INSERT INTO "provider_ref_directory" ("provider", "ref", "kind", "shop_id", "row_id")
SELECT provider, provider_ref, 'checkout_session', shop_id, id FROM checkout_sessions WHERE provider_ref IS NOT NULL;--> statement-breakpoint
INSERT INTO "provider_ref_directory" ("provider", "ref", "kind", "shop_id", "row_id")
SELECT provider, provider_ref, 'abo', shop_id, id FROM abos WHERE provider_ref IS NOT NULL;--> statement-breakpoint
INSERT INTO "provider_ref_directory" ("provider", "ref", "kind", "shop_id", "row_id")
SELECT provider, provider_ref, 'refund', shop_id, id FROM refunds WHERE provider_ref IS NOT NULL;
