-- activity_feed_page as in 0027, except that the page's trigger events are looked up one by one: with
-- trigger_events partitioned (0029), `id = ANY(ARRAY(subquery))` cannot be pruned and probed the index
-- of every week of events for each page, while a lookup per event id reads only the partition that
-- holds it (LIMIT 1 keeps the lookup a subquery run per event, whatever the planner's estimates).
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
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
  -- The caller fetches one id more than a page, so has_more is exact.
  page_ids uuid[] := p_candidate_ids[1:p_page_size];
  -- The page's id range: with a plan made once, a lookup by id in it reads only the page's partitions.
  page_from uuid := (SELECT min(activity_children_from(x)::text) FROM unnest(page_ids) x)::uuid;
  page_to uuid := (SELECT max(activity_children_to(x)::text) FROM unnest(page_ids) x)::uuid;
BEGIN
  RETURN QUERY
  WITH page AS MATERIALIZED (
    SELECT n.id, n.environment_id, n.organization_id, n.event_id, n.subscriber_id, n.workflow_id, n.transaction_id,
      n.digested_notification_id, n.channels, n.tags, n.controls, n."to", n.topics, n.context_keys, n.created_at, n.updated_at,
      activity_children_from(n.id) AS children_from, activity_children_to(n.id) AS children_to
    FROM notifications n
    WHERE n.id = ANY(page_ids) AND n.id >= page_from AND n.id < page_to AND (n.environment_id = p_environment_id) IS TRUE
  )
  SELECT
    coalesce(cardinality(p_candidate_ids), 0) > p_page_size,
    (SELECT coalesce(json_agg(json_build_object(
        'id', p.id, 'environmentId', p.environment_id, 'organizationId', p.organization_id, 'eventId', p.event_id,
        'subscriberId', p.subscriber_id, 'workflowId', p.workflow_id, 'transactionId', p.transaction_id,
        'digestedNotificationId', p.digested_notification_id, 'channels', p.channels,
        'tags', p.tags, 'controls', p.controls, 'to', p."to", 'topics', p.topics,
        'createdAt', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'contextKeys', coalesce(p.context_keys, '{}'),
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
     FROM page p
     JOIN jobs j ON j.notification_id = p.id AND j.id >= p.children_from AND j.id < p.children_to
     WHERE (j.environment_id = p_environment_id) IS TRUE),
    (SELECT coalesce(json_agg(json_build_object(
        'id', d.id, 'jobId', d.job_id, 'status', d.status, 'detail', d.detail, 'source', d.source,
        'providerId', d.provider_id, 'raw', d.raw, 'isRetry', d.is_retry, 'isTest', d.is_test,
        'createdAt', to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      ORDER BY d.created_at, d.id), '[]')
     FROM page p
     JOIN execution_details d ON d.notification_id = p.id AND d.id >= p.children_from AND d.id < p.children_to
     WHERE (d.environment_id = p_environment_id) IS TRUE),
    -- A notification whose event is gone has none here; the caller shows {} as its payload.
    (SELECT coalesce(json_agg(json_build_object(
        'id', e.id,
        'payload', coalesce(e.request -> 'payload', '{}'::jsonb),
        'overrides', coalesce(e.request -> 'overrides', '{}'::jsonb))), '[]')
     FROM (SELECT DISTINCT p.event_id FROM page p) f
     CROSS JOIN LATERAL (
       SELECT e.id, e.request FROM trigger_events e
       WHERE e.id = f.event_id AND (e.environment_id = p_environment_id) IS TRUE
       LIMIT 1
     ) e);
END
$$;
