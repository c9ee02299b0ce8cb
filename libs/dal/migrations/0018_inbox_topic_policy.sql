ALTER TABLE "environments" ADD COLUMN "inbox_topic_patterns" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "inbox_topics_per_subscriber" integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "topic_subscribers" ADD COLUMN "joined_by_session" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "topic_subscribers_session_joins_idx" ON "topic_subscribers" USING btree ("subscriber_id") WHERE "topic_subscribers"."joined_by_session";