ALTER TABLE "jobs" DROP COLUMN "payload";--> statement-breakpoint
ALTER TABLE "jobs" DROP COLUMN "overrides";--> statement-breakpoint
ALTER TABLE "notifications" DROP COLUMN "payload";--> statement-breakpoint
ALTER TABLE "messages" DROP COLUMN "payload";--> statement-breakpoint
ALTER TABLE "messages" DROP COLUMN "overrides";