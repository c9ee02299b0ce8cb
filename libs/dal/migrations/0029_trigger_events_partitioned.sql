-- trigger_events becomes partitioned by week of its UUIDv7 ids, like the activity tables (0026): the
-- retention drops a week of events with that week's notifications instead of deleting them one by one
-- (a delete per row, whose dead rows only a VACUUM gives back).
--
-- A unique index of a partitioned table must contain the partition key, so (environment_id,
-- transaction_id) is unique in each partition by an index of the partition's own (created with it by
-- activity_partitions_ensure), not across them: the insert looks for the transactionId in the other
-- partitions itself. Two requests with one transactionId fall into one partition unless they straddle a
-- week's boundary in the same instant.
--
-- Existing rows are copied into the new table, a partition for each week they span: this holds a lock
-- on trigger_events for the length of the copy, triggers wait for it. The jobs' partial index of
-- unfinished work is rebuilt with `pending` in it (a read of the jobs, writes wait for it).

DROP INDEX "trigger_events_env_transaction_uq";--> statement-breakpoint

-- As in 0026, with a unique transactionId index for each partition of trigger_events.
CREATE OR REPLACE FUNCTION activity_partitions_ensure(p_table text, p_from date, p_to date) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  week date;
  part text;
  created integer := 0;
BEGIN
  FOR week IN SELECT d::date FROM generate_series(activity_partition_start(p_from)::timestamp,
      activity_partition_start(p_to)::timestamp, interval '7 days') d LOOP
    part := p_table || '_p' || to_char(week, 'YYYYMMDD');
    CONTINUE WHEN to_regclass(part) IS NOT NULL;
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', part, p_table);
    IF p_table = 'trigger_events' THEN
      EXECUTE format('CREATE UNIQUE INDEX %I ON %I (environment_id, transaction_id)', part || '_transaction_uq', part);
    END IF;
    EXECUTE format(
      'WITH moved AS (DELETE FROM %I WHERE id >= %L AND id < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
      p_table || '_default', activity_partition_bound(week), activity_partition_bound(week + 7), part);
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
      p_table, part, activity_partition_bound(week), activity_partition_bound(week + 7));
    created := created + 1;
  END LOOP;
  RETURN created;
END
$$;--> statement-breakpoint

DO $$
DECLARE
  day date;
BEGIN
  ALTER TABLE trigger_events RENAME TO trigger_events_unpartitioned;
  CREATE TABLE trigger_events (LIKE trigger_events_unpartitioned INCLUDING DEFAULTS) PARTITION BY RANGE (id);
  CREATE TABLE trigger_events_default PARTITION OF trigger_events DEFAULT;
  CREATE UNIQUE INDEX trigger_events_default_transaction_uq ON trigger_events_default (environment_id, transaction_id);
  -- Weeks of the existing rows (within ten years back); a week ahead for the rows to come.
  FOR day IN SELECT DISTINCT activity_partition_start(activity_id_day(id)) FROM trigger_events_unpartitioned
      WHERE activity_id_day(id) BETWEEN current_date - 3650 AND current_date + 7 LOOP
    PERFORM activity_partitions_ensure('trigger_events', day, day);
  END LOOP;
  PERFORM activity_partitions_ensure('trigger_events', current_date - 1, current_date + 7);
  INSERT INTO trigger_events SELECT * FROM trigger_events_unpartitioned;
  DROP TABLE trigger_events_unpartitioned;
END
$$;--> statement-breakpoint

ALTER TABLE "trigger_events" ADD PRIMARY KEY ("id");--> statement-breakpoint
CREATE INDEX "trigger_events_status_idx" ON "trigger_events" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "trigger_events_env_created_idx" ON "trigger_events" USING btree ("environment_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- As in 0023; the expression must stay identical to NAMED_SUBSCRIBERS in subscriber-erasure.ts.
CREATE INDEX "trigger_events_named_subscribers_idx" ON "trigger_events" USING gin ((
  jsonb_path_query_array(request, '$.to ? (@.type() == "string")', '{}', true)
  || jsonb_path_query_array(request, '$.to.subscriberId', '{}', true)
  || jsonb_path_query_array(request, '$.to.exclude[*]', '{}', true)
  || jsonb_path_query_array(request, '$.actor ? (@.type() == "string")', '{}', true)
  || jsonb_path_query_array(request, '$.actor.subscriberId', '{}', true)) jsonb_path_ops);
--> statement-breakpoint
-- The jobs not finished, pending ones too: the retention finds the work a week's rows are kept for
-- through this index rather than by reading the week's jobs.
DROP INDEX "jobs_status_updated_idx";--> statement-breakpoint
CREATE INDEX "jobs_status_updated_idx" ON "jobs" USING btree ("status","updated_at") WHERE "jobs"."status" in ('pending', 'queued', 'delayed', 'running');
