DROP INDEX "topic_subscribers_session_joins_idx";--> statement-breakpoint
CREATE INDEX "topic_subscribers_subscriber_idx" ON "topic_subscribers" USING btree ("subscriber_id");