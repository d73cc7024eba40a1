-- A refund remembers the Idempotency-Key of the request that claimed it, so a retry after a crash
-- between the claim and the provider's answer resumes that refund instead of moving the money again.
ALTER TABLE "refunds" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_idempotency_uq" ON "refunds" USING btree ("shop_id","order_id","idempotency_key") WHERE idempotency_key IS NOT NULL;