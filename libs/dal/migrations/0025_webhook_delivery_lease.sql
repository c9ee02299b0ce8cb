-- A lane's lease on a delivery in its own, unindexed column (it moved next_attempt_at before): taking a
-- lease then changes no indexed column, and with room left on each page (fillfactor) it is a heap-only
-- update that writes no index entry.
ALTER TABLE "webhook_deliveries" ADD COLUMN "leased_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" SET (fillfactor = 50);
