CREATE TABLE "maintenance_status" (
	"name" text PRIMARY KEY NOT NULL,
	"last_success_at" timestamp with time zone,
	"last_duration_ms" integer,
	"last_removed" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"removed_total" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"succeeded" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"interrupted" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "retention_activity_days" integer;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "retention_messages_days" integer;--> statement-breakpoint
CREATE INDEX "trigger_events_env_created_idx" ON "trigger_events" USING btree ("environment_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_env_created_idx" ON "messages" USING btree ("environment_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_retention_activity_days_ck" CHECK ("environments"."retention_activity_days" BETWEEN 1 AND 3650);--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_retention_messages_days_ck" CHECK ("environments"."retention_messages_days" BETWEEN 1 AND 3650);--> statement-breakpoint
-- Finished throttle and backoff digest jobs are read by later runs of their step for a window (the
-- throttle's, the backoff's), so they now carry result.retainUntil, the end of that window, and the
-- retention keeps them until then. Those finished before get the longest window a step may have
-- (180 days) from now: the first retention runs never shorten a window they were counted in.
UPDATE "jobs" SET "result" = COALESCE("result", '{}'::jsonb) || jsonb_build_object('retainUntil', now() + interval '180 days')
WHERE "type" IN ('digest', 'throttle')
  AND (("type" = 'throttle' AND ("result" ->> 'passedAt')::timestamptz > now() - interval '180 days')
    OR ("type" = 'digest' AND ("digest" ->> 'type' = 'backoff' OR "digest" ->> 'backoff' = 'true')
      AND "created_at" > now() - interval '180 days'));
