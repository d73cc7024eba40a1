-- Webhook retention (platform/jobs/maintenance.ts, docs/webhooks.md): finished deliveries are
-- found by their last change and events by their age, oldest first. Plain CREATE INDEX, because
-- migrations run in one transaction: it blocks writes to these two tables while it builds.
CREATE INDEX "webhook_deliveries_finished_idx" ON "webhook_deliveries" USING btree ("updated_at") WHERE status IN ('succeeded', 'dead');--> statement-breakpoint
CREATE INDEX "webhook_events_created_idx" ON "webhook_events" USING btree ("created_at");