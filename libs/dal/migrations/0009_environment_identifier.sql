ALTER TABLE "environments" ADD COLUMN "identifier" text;--> statement-breakpoint
-- Existing environments get a random identifier before the column becomes NOT NULL.
UPDATE "environments" SET "identifier" = substr(md5(random()::text || "id"::text), 1, 16) WHERE "identifier" IS NULL;--> statement-breakpoint
ALTER TABLE "environments" ALTER COLUMN "identifier" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "require_hmac" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "environments_identifier_uq" ON "environments" USING btree ("identifier");
