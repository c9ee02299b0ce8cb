CREATE TABLE "api_processes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "online_process_id" uuid;--> statement-breakpoint
CREATE INDEX "subscribers_online_process_idx" ON "subscribers" USING btree ("online_process_id") WHERE "subscribers"."online_process_id" IS NOT NULL;