-- The feed's newest pages without filters (the dashboard's first view, an API client polling): the
-- page's ids and their contents in one call, planned once per session. As a statement from the api,
-- PostgreSQL planned it again on every call: its LIMIT and OFFSET are parameters, for which a plan
-- made once is costed as if it read a tenth of the environment's notifications, so the planner never
-- kept one, and planning the merge of every week partition's index cost more than running it. The plan
-- kept is costed the same way (a tenth of the environment: ~195,000 over 10 million notifications), which
-- is past jit_above_cost: without `jit = off` PostgreSQL compiled it on every call (10-70 ms for a page
-- that reads 11 index entries).
CREATE FUNCTION activity_feed_newest(p_environment_id uuid, p_fetch integer, p_offset integer, p_page_size integer)
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
SET jit = off
AS $$
BEGIN
  RETURN QUERY
  SELECT f.* FROM activity_feed_page(p_environment_id, ARRAY(
    SELECT n.id FROM notifications n WHERE n.environment_id = p_environment_id
    ORDER BY n.created_at DESC NULLS LAST, n.id DESC NULLS LAST
    LIMIT p_fetch OFFSET p_offset), p_page_size) f;
END
$$;
