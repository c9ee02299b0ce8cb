-- Inbox state of a message (Novu's v2 subscriber notification routes): archived and when, the
-- workflow tags it was sent with, its severity and client data. Existing rows are unarchived, untagged, severity none.
ALTER TABLE "messages" ADD COLUMN "archived" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "severity" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "data" jsonb;