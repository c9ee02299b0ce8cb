-- An event's body is kept as the JSON text sent and signed: the worker sends it as read, with no parse
-- and no re-serialization, and PostgreSQL does not parse it into jsonb on the way in.
ALTER TABLE "webhook_events" ALTER COLUMN "body" SET DATA TYPE text USING "body"::text;
