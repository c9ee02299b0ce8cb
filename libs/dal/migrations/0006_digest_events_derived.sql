-- A digest job no longer keeps the payloads of the events it gathered (`digest.events`: one copy
-- per subscriber of every digested payload). They are derived where they are read: the steps after
-- a digest read them through NotificationRepository.findDigestedPayloads, and the activity feed
-- through digest_event_payloads below. Both follow notifications.digested_notification_id, which
-- the index makes a key lookup.
CREATE INDEX "notifications_digested_idx" ON "notifications" USING btree ("digested_notification_id","created_at","id") WHERE "notifications"."digested_notification_id" IS NOT NULL;--> statement-breakpoint
-- The copies already stored are dropped: what they held is derived the same way.
UPDATE jobs SET digest = digest - 'events' WHERE type = 'digest' AND digest -> 'events' IS NOT NULL;--> statement-breakpoint
-- A digest's events: the payload of its own notification's trigger, then those of the notifications
-- merged into it, oldest first ({} for an event that is gone).
CREATE FUNCTION digest_event_payloads(p_environment_id uuid, p_notification_id uuid)
RETURNS jsonb
LANGUAGE sql STABLE
AS $$
  SELECT coalesce(jsonb_agg(coalesce(e.request -> 'payload', '{}'::jsonb) ORDER BY g.merged, g.created_at, g.id), '[]'::jsonb)
  FROM (
    SELECT false AS merged, n.id, n.created_at, n.event_id FROM notifications n
    WHERE n.id = p_notification_id AND (n.environment_id = p_environment_id) IS TRUE
    UNION ALL
    SELECT true, n.id, n.created_at, n.event_id FROM notifications n
    WHERE n.digested_notification_id = p_notification_id AND (n.environment_id = p_environment_id) IS TRUE
  ) g
  LEFT JOIN trigger_events e ON e.id = g.event_id AND (e.environment_id = p_environment_id) IS TRUE
$$;--> statement-breakpoint
-- activity_feed_page as in 0005, except that a digest job's `digest` gets its `events` from
-- digest_event_payloads instead of the job row (the API shape is unchanged).
CREATE OR REPLACE FUNCTION activity_feed_page(p_environment_id uuid, p_candidate_ids uuid[], p_page_size integer)
RETURNS TABLE (
  has_more boolean,
  notification_rows json,
  subscriber_rows json,
  workflow_rows json,
  job_rows json,
  execution_detail_rows json,
  event_rows json
)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
  -- The caller fetches one id more than a page, so has_more is exact.
  page_ids uuid[] := p_candidate_ids[1:p_page_size];
BEGIN
  RETURN QUERY
  WITH page AS MATERIALIZED (
    SELECT n.id, n.environment_id, n.organization_id, n.event_id, n.subscriber_id, n.workflow_id, n.transaction_id,
      n.digested_notification_id, n.channels, n.tags, n.controls, n."to", n.topics, n.created_at, n.updated_at
    FROM notifications n
    WHERE n.id = ANY(page_ids) AND (n.environment_id = p_environment_id) IS TRUE
  )
  SELECT
    coalesce(cardinality(p_candidate_ids), 0) > p_page_size,
    (SELECT coalesce(json_agg(json_build_object(
        'id', p.id, 'environmentId', p.environment_id, 'organizationId', p.organization_id, 'eventId', p.event_id,
        'subscriberId', p.subscriber_id, 'workflowId', p.workflow_id, 'transactionId', p.transaction_id,
        'digestedNotificationId', p.digested_notification_id, 'channels', p.channels,
        'tags', p.tags, 'controls', p.controls, 'to', p."to", 'topics', p.topics,
        'createdAt', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'updatedAt', to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      ORDER BY p.created_at DESC NULLS LAST, p.id DESC NULLS LAST), '[]')
     FROM page p),
    (SELECT coalesce(json_agg(json_build_object(
        'id', s.id, 'subscriberId', s.subscriber_id, 'firstName', s.first_name, 'lastName', s.last_name,
        'email', s.email, 'phone', s.phone)), '[]')
     FROM subscribers s
     WHERE s.id = ANY(ARRAY(SELECT p.subscriber_id FROM page p)) AND (s.environment_id = p_environment_id AND NOT s.deleted) IS TRUE),
    (SELECT coalesce(json_agg(json_build_object('id', w.id, 'identifier', w.identifier, 'name', w.name, 'steps', w.steps)), '[]')
     FROM workflows w
     WHERE w.id = ANY(ARRAY(SELECT p.workflow_id FROM page p)) AND (w.environment_id = p_environment_id AND NOT w.deleted) IS TRUE),
    (SELECT coalesce(json_agg(json_build_object(
        'id', j.id, 'notificationId', j.notification_id, 'type', j.type,
        -- A digest that released its window (completed) or let a first backoff event through
        -- (skipped) shows the events it gathered; one canceled, failed or merged shows none.
        'digest', CASE WHEN j.type = 'digest' AND j.status IN ('completed', 'skipped')
          THEN coalesce(j.digest, '{}'::jsonb)
            || jsonb_build_object('events', digest_event_payloads(p_environment_id, j.notification_id))
          ELSE j.digest END,
        'step', j.step,
        'providerId', j.provider_id, 'status', j.status,
        'updatedAt', to_char(j.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      ORDER BY j.notification_id, j.step_index), '[]')
     FROM jobs j
     WHERE j.notification_id = ANY(page_ids) AND (j.environment_id = p_environment_id) IS TRUE),
    (SELECT coalesce(json_agg(json_build_object(
        'id', d.id, 'jobId', d.job_id, 'status', d.status, 'detail', d.detail, 'source', d.source,
        'providerId', d.provider_id, 'raw', d.raw, 'isRetry', d.is_retry, 'isTest', d.is_test,
        'createdAt', to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      ORDER BY d.created_at, d.id), '[]')
     FROM execution_details d
     WHERE d.notification_id = ANY(page_ids) AND (d.environment_id = p_environment_id) IS TRUE),
    -- A notification whose event is gone has none here; the caller shows {} as its payload.
    (SELECT coalesce(json_agg(json_build_object(
        'id', e.id,
        'payload', coalesce(e.request -> 'payload', '{}'::jsonb),
        'overrides', coalesce(e.request -> 'overrides', '{}'::jsonb))), '[]')
     FROM trigger_events e
     WHERE e.id = ANY(ARRAY(SELECT DISTINCT p.event_id FROM page p)) AND (e.environment_id = p_environment_id) IS TRUE);
END
$$;
