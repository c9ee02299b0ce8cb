DROP INDEX "jobs_status_updated_idx";--> statement-breakpoint
DROP INDEX "jobs_digest_lookup_idx";--> statement-breakpoint
CREATE INDEX "jobs_status_updated_idx" ON "jobs" USING btree ("status","updated_at") WHERE "jobs"."status" in ('queued', 'delayed', 'running');--> statement-breakpoint
CREATE INDEX "jobs_digest_lookup_idx" ON "jobs" USING btree ("environment_id","subscriber_id","workflow_id","type","status") WHERE "jobs"."type" in ('digest', 'throttle');