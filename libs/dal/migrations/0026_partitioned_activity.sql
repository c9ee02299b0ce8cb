-- The activity tables (notifications, jobs, execution_details, messages) become partitioned by day, by
-- range of their UUIDv7 ids (whose first 48 bits are the creation time in milliseconds): the retention
-- drops a day's partition instead of deleting its rows one by one. A unique index of a partitioned table
-- must contain the partition key, so the (event, subscriber), (notification, step) and (job, delivery)
-- unique indexes become plain ones: the rows those pairs identify now have ids derived from them, and
-- the primary key keeps them unique. Each table has a default partition for rows whose day has no
-- partition (ids that are not UUIDv7, or written before the maintenance job created their day) and for
-- the pending rows of an expired day.
--
-- Existing rows are copied into the new tables, a partition for each day they span: this holds a lock
-- on the four tables for the length of the copy, writes wait for it.

-- The smallest id of a UTC day: a partition holds the ids from its day's bound to the next day's.
CREATE FUNCTION activity_partition_bound(p_day date) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
  SELECT (lpad(to_hex((extract(epoch FROM p_day::timestamp) * 1000)::bigint), 12, '0') || '00000000000000000000')::uuid
$$;--> statement-breakpoint

-- The UTC day of a UUIDv7 id; null for an id of another version.
CREATE FUNCTION activity_id_day(p_id uuid) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN substr(p_id::text, 15, 1) = '7'
    THEN (to_timestamp(('x' || substr(replace(p_id::text, '-', ''), 1, 12))::bit(48)::bigint / 1000.0) AT TIME ZONE 'UTC')::date
  END
$$;--> statement-breakpoint

-- Creates the missing day partitions of p_table from p_from to p_to; rows of those days waiting in the
-- default partition move into theirs. Returns how many it created.
CREATE FUNCTION activity_partitions_ensure(p_table text, p_from date, p_to date) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  day date;
  part text;
  created integer := 0;
BEGIN
  FOR day IN SELECT d::date FROM generate_series(p_from::timestamp, p_to::timestamp, interval '1 day') d LOOP
    part := p_table || '_p' || to_char(day, 'YYYYMMDD');
    CONTINUE WHEN to_regclass(part) IS NOT NULL;
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', part, p_table);
    EXECUTE format(
      'WITH moved AS (DELETE FROM %I WHERE id >= %L AND id < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
      p_table || '_default', activity_partition_bound(day), activity_partition_bound(day + 1), part);
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
      p_table, part, activity_partition_bound(day), activity_partition_bound(day + 1));
    created := created + 1;
  END LOOP;
  RETURN created;
END
$$;--> statement-breakpoint

DO $$
DECLARE
  t text;
  day date;
BEGIN
  FOREACH t IN ARRAY ARRAY['notifications', 'jobs', 'execution_details', 'messages'] LOOP
    EXECUTE format('ALTER TABLE %I RENAME TO %I', t, t || '_unpartitioned');
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS) PARTITION BY RANGE (id)', t, t || '_unpartitioned');
    EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', t || '_default', t);
    -- Days of the existing rows (within ten years back); a week ahead for the rows to come.
    FOR day IN EXECUTE format(
      'SELECT DISTINCT activity_id_day(id) FROM %I WHERE activity_id_day(id) BETWEEN current_date - 3650 AND current_date + 7',
      t || '_unpartitioned') LOOP
      PERFORM activity_partitions_ensure(t, day, day);
    END LOOP;
    PERFORM activity_partitions_ensure(t, current_date - 1, current_date + 7);
    EXECUTE format('INSERT INTO %I SELECT * FROM %I', t, t || '_unpartitioned');
    EXECUTE format('DROP TABLE %I', t || '_unpartitioned');
  END LOOP;
END
$$;--> statement-breakpoint

ALTER TABLE "notifications" ADD PRIMARY KEY ("id");--> statement-breakpoint
CREATE INDEX "notifications_env_created_idx" ON "notifications" USING btree ("environment_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_event_subscriber_idx" ON "notifications" USING btree ("event_id","subscriber_id");--> statement-breakpoint
CREATE INDEX "notifications_env_subscriber_created_idx" ON "notifications" USING btree ("environment_id","subscriber_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_env_transaction_idx" ON "notifications" USING btree ("environment_id","transaction_id");--> statement-breakpoint
CREATE INDEX "notifications_digested_idx" ON "notifications" USING btree ("digested_notification_id","created_at","id") WHERE "notifications"."digested_notification_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD PRIMARY KEY ("id");--> statement-breakpoint
CREATE INDEX "jobs_notification_step_idx" ON "jobs" USING btree ("notification_id","step_index");--> statement-breakpoint
CREATE INDEX "jobs_env_transaction_idx" ON "jobs" USING btree ("environment_id","transaction_id");--> statement-breakpoint
CREATE INDEX "jobs_status_updated_idx" ON "jobs" USING btree ("status","updated_at") WHERE "jobs"."status" in ('queued', 'delayed', 'running');--> statement-breakpoint
CREATE INDEX "jobs_digest_lookup_idx" ON "jobs" USING btree ("environment_id","subscriber_id","workflow_id","type","status") WHERE "jobs"."type" in ('digest', 'throttle');--> statement-breakpoint
ALTER TABLE "execution_details" ADD PRIMARY KEY ("id");--> statement-breakpoint
CREATE INDEX "execution_details_notification_idx" ON "execution_details" USING btree ("notification_id","created_at");--> statement-breakpoint
ALTER TABLE "messages" ADD PRIMARY KEY ("id");--> statement-breakpoint
CREATE INDEX "messages_job_delivery_idx" ON "messages" USING btree ("job_id","delivery_key");--> statement-breakpoint
CREATE INDEX "messages_env_subscriber_channel_created_idx" ON "messages" USING btree ("environment_id","subscriber_id","channel","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_env_transaction_idx" ON "messages" USING btree ("environment_id","transaction_id");--> statement-breakpoint
CREATE INDEX "messages_env_created_idx" ON "messages" USING btree ("environment_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_snoozed_until_idx" ON "messages" USING btree ("snoozed_until") WHERE "messages"."snoozed_until" IS NOT NULL;
