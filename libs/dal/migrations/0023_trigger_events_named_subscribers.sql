-- The subscribers a trigger body names (inline `to` ids and objects, topic excludes, the actor), so
-- that erasing a subscriber finds the bodies that mention it without reading the environment's
-- events. The expression must stay identical to NAMED_SUBSCRIBERS in subscriber-erasure.ts.
CREATE INDEX IF NOT EXISTS "trigger_events_named_subscribers_idx" ON "trigger_events" USING gin ((
  jsonb_path_query_array(request, '$.to ? (@.type() == "string")', '{}', true)
  || jsonb_path_query_array(request, '$.to.subscriberId', '{}', true)
  || jsonb_path_query_array(request, '$.to.exclude[*]', '{}', true)
  || jsonb_path_query_array(request, '$.actor ? (@.type() == "string")', '{}', true)
  || jsonb_path_query_array(request, '$.actor.subscriberId', '{}', true)) jsonb_path_ops);
