CREATE TABLE "contexts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"type" text NOT NULL,
	"identifier" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "environment_variables" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"key" text NOT NULL,
	"type" text DEFAULT 'string' NOT NULL,
	"is_secret" boolean DEFAULT false NOT NULL,
	"values" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "layouts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"layout_id" text NOT NULL,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"control_values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "color" text;--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "origin" text DEFAULT 'novu-cloud-v1' NOT NULL;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "payload_schema" jsonb;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "validate_payload" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "preferences" jsonb;--> statement-breakpoint
ALTER TABLE "topic_subscribers" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "topic_subscribers" ADD COLUMN "context" jsonb;--> statement-breakpoint
ALTER TABLE "topic_subscribers" ADD COLUMN "preferences" jsonb;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "context_keys" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "contexts_env_type_identifier_uq" ON "contexts" USING btree ("environment_id","type","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "environment_variables_org_key_uq" ON "environment_variables" USING btree ("organization_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "layouts_env_layout_id_uq" ON "layouts" USING btree ("environment_id","layout_id") WHERE NOT "layouts"."deleted";--> statement-breakpoint
CREATE UNIQUE INDEX "layouts_env_default_uq" ON "layouts" USING btree ("environment_id") WHERE "layouts"."is_default" AND NOT "layouts"."deleted";--> statement-breakpoint
UPDATE "environments" AS "development" SET "parent_id" = "production"."id" FROM "environments" AS "production" WHERE "development"."organization_id" = "production"."organization_id" AND "development"."name" = 'Development' AND "production"."name" = 'Production';
