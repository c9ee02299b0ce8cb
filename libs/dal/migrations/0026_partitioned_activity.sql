-- The activity tables (notifications, jobs, execution_details, messages) become partitioned by week, by
-- range of their UUIDv7 ids (whose first 48 bits are the creation time in milliseconds): the retention
-- drops a week's partition instead of deleting its rows one by one. A week, not a day: every query that
-- cannot tell the partition from its conditions (an inbox, a notification's jobs) plans and reads each
-- partition, and with ninety days of messages, day partitions made those reads ten times slower.
--
-- A unique index of a partitioned table must contain the partition key, so the (event, subscriber),
-- (notification, step) and (job, delivery) unique indexes become plain ones: the rows those pairs
-- identify now have ids derived from them, and the primary key keeps them unique. Each table has a default partition for rows whose week has no
-- partition (ids that are not UUIDv7, or written before the maintenance job created their week) and for
-- the pending rows of an expired week.
--
-- Existing rows are copied into the new tables, a partition for each week they span: this holds a lock
-- on the four tables for the length of the copy, writes wait for it.

-- The smallest id of a UTC day: a partition holds the ids from its first day's bound to the next week's.
CREATE FUNCTION activity_partition_bound(p_day date) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
  SELECT (lpad(to_hex((extract(epoch FROM p_day::timestamp) * 1000)::bigint), 12, '0') || '00000000000000000000')::uuid
$$;--> statement-breakpoint

-- The UTC day of a UUIDv7 id; null for an id of another version.
CREATE FUNCTION activity_id_day(p_id uuid) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN substr(p_id::text, 15, 1) = '7'
    THEN (to_timestamp(('x' || substr(replace(p_id::text, '-', ''), 1, 12))::bit(48)::bigint / 1000.0) AT TIME ZONE 'UTC')::date
  END
$$;--> statement-breakpoint

-- The Monday (UTC) that starts the week of a day: partitions hold Monday to Sunday.
CREATE FUNCTION activity_partition_start(p_day date) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT p_day - ((p_day - date '1970-01-05') % 7)
$$;--> statement-breakpoint

-- Creates the missing week partitions of p_table covering p_from to p_to; rows of those weeks waiting in
-- the default partition move into theirs. Returns how many it created.
CREATE FUNCTION activity_partitions_ensure(p_table text, p_from date, p_to date) RETURNS integer LANGUAGE plpgsql AS $$
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
  t text;
  day date;
BEGIN
  FOREACH t IN ARRAY ARRAY['notifications', 'jobs', 'execution_details', 'messages'] LOOP
    EXECUTE format('ALTER TABLE %I RENAME TO %I', t, t || '_unpartitioned');
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS) PARTITION BY RANGE (id)', t, t || '_unpartitioned');
    EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', t || '_default', t);
    -- Weeks of the existing rows (within ten years back); a week ahead for the rows to come.
    FOR day IN EXECUTE format(
      'SELECT DISTINCT activity_partition_start(activity_id_day(id)) FROM %I
       WHERE activity_id_day(id) BETWEEN current_date - 3650 AND current_date + 7',
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
-- With the id, the feed's and the inbox's per-subscriber lists read each partition in their order
-- (newest first, id breaking ties) and merge the partitions' first rows instead of sorting all of them.
CREATE INDEX "notifications_env_subscriber_created_idx" ON "notifications" USING btree ("environment_id","subscriber_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
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
CREATE INDEX "messages_env_subscriber_channel_created_idx" ON "messages" USING btree ("environment_id","subscriber_id","channel","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_env_transaction_idx" ON "messages" USING btree ("environment_id","transaction_id");--> statement-breakpoint
CREATE INDEX "messages_env_created_idx" ON "messages" USING btree ("environment_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_snoozed_until_idx" ON "messages" USING btree ("snoozed_until") WHERE "messages"."snoozed_until" IS NOT NULL;
