CREATE TABLE "translations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" text NOT NULL,
	"locale" text NOT NULL,
	"content" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "environments" ADD COLUMN "default_locale" text DEFAULT 'en_US' NOT NULL;--> statement-breakpoint
ALTER TABLE "workflows" ADD COLUMN "is_translation_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "layouts" ADD COLUMN "is_translation_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "translations_env_resource_locale_uq" ON "translations" USING btree ("environment_id","resource_type","resource_id","locale");