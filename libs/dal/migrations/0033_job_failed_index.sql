-- The failed jobs of an environment, for the activity feed's status filter (`statuses=failed` starts from
-- them instead of looking at each notification's jobs). Created on the partitioned table, so on every week
-- partition and the default one, and on those created later. Partitions cannot build it concurrently
-- inside the migration's transaction: writes to jobs wait while each partition is read once.
CREATE INDEX "jobs_env_failed_idx" ON "jobs" USING btree ("environment_id","notification_id") WHERE "jobs"."status" = 'failed';
--> statement-breakpoint
-- A notification's status as the feed's status filter reads it while walking the feed in order: failed
-- when a job failed, pending while one is unfinished, else completed (also a notification without
-- jobs). A function, not a sub-select in the feed's statement: there PostgreSQL costed each call as a
-- probe of every week partition of jobs, and the plan's cost compiled it (JIT) for over a second; here
-- its statement reads the notification's id range (0027), so one partition, and is planned once per
-- session (a custom plan for each call cost more than the call). COST tells the planner one call is a few
-- index probes.
CREATE FUNCTION activity_notification_status(p_environment_id uuid, p_notification_id uuid) RETURNS text
LANGUAGE plpgsql STABLE COST 10
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
  RETURN (
    SELECT CASE WHEN bool_or(j.status = 'failed') THEN 'failed'
      WHEN bool_or(j.status IN ('pending', 'queued', 'running', 'delayed')) THEN 'pending' ELSE 'completed' END
    FROM jobs j
    WHERE j.notification_id = p_notification_id AND (j.environment_id = p_environment_id) IS TRUE
      AND j.id >= activity_children_from(p_notification_id) AND j.id < activity_children_to(p_notification_id));
END
$$;
