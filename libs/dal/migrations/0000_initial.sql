CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"key_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "environments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscribers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"subscriber_id" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"email" text,
	"phone" text,
	"avatar" text,
	"locale" text,
	"timezone" text,
	"data" jsonb,
	"channels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_online" boolean,
	"last_online_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"identifier" text NOT NULL,
	"name" text NOT NULL,
	"provider_id" text NOT NULL,
	"channel" text NOT NULL,
	"credentials" text NOT NULL,
	"configurations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"primary" boolean DEFAULT false NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"conditions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"deleted_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_groups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"identifier" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"draft" boolean DEFAULT false NOT NULL,
	"critical" boolean DEFAULT false NOT NULL,
	"preference_settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"data" jsonb,
	"notification_group_id" uuid NOT NULL,
	"creator_id" text,
	"deleted" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone,
	"deleted_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"identifier" text NOT NULL,
	"name" text,
	"data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topic_subscribers" (
	"topic_id" uuid NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"external_subscriber_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "topic_subscribers_pk" PRIMARY KEY("topic_id","subscriber_id")
);
--> statement-breakpoint
CREATE TABLE "topics" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"key" text NOT NULL,
	"name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "preferences" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"workflow_id" uuid,
	"channels" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"schedule" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "preferences_env_subscriber_workflow_uq" UNIQUE NULLS NOT DISTINCT("environment_id","subscriber_id","workflow_id")
);
--> statement-breakpoint
CREATE TABLE "execution_details" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"job_id" uuid NOT NULL,
	"notification_id" uuid NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"status" text NOT NULL,
	"detail" text NOT NULL,
	"source" text DEFAULT 'Internal' NOT NULL,
	"provider_id" text,
	"raw" text,
	"is_retry" boolean DEFAULT false NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"notification_id" uuid NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"workflow_id" uuid NOT NULL,
	"transaction_id" text NOT NULL,
	"step_index" integer NOT NULL,
	"step" jsonb NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"digest" jsonb,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"overrides" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"provider_id" text,
	"parent_id" uuid,
	"run_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"subscriber_id" uuid NOT NULL,
	"workflow_id" uuid NOT NULL,
	"transaction_id" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"channels" text[] DEFAULT '{}'::text[] NOT NULL,
	"to" jsonb,
	"topics" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"controls" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"digested_notification_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trigger_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"transaction_id" text NOT NULL,
	"workflow_id" uuid NOT NULL,
	"request" jsonb NOT NULL,
	"status" text DEFAULT 'received' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text NOT NULL,
	"response_status" jsonb,
	"response_body" jsonb,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"environment_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"notification_id" uuid NOT NULL,
	"job_id" uuid,
	"subscriber_id" uuid NOT NULL,
	"workflow_id" uuid,
	"template_identifier" text,
	"transaction_id" text NOT NULL,
	"channel" text NOT NULL,
	"delivery_key" text DEFAULT '' NOT NULL,
	"subject" text,
	"title" text,
	"content" jsonb,
	"cta" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"read" boolean DEFAULT false NOT NULL,
	"seen" boolean DEFAULT false NOT NULL,
	"last_read_date" timestamp with time zone,
	"last_seen_date" timestamp with time zone,
	"delivered_at" text[] DEFAULT '{}'::text[] NOT NULL,
	"snoozed_until" timestamp with time zone,
	"status" text DEFAULT 'sent' NOT NULL,
	"error_id" text,
	"error_text" text,
	"provider_id" text,
	"device_tokens" text[],
	"email" text,
	"phone" text,
	"direct_webhook_url" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"overrides" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"context_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"feed_id" text,
	"deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topic_subscribers" ADD CONSTRAINT "topic_subscribers_topic_id_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_uq" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_environment_idx" ON "api_keys" USING btree ("environment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "environments_org_name_uq" ON "environments" USING btree ("organization_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_env_subscriber_id_uq" ON "subscribers" USING btree ("environment_id","subscriber_id");--> statement-breakpoint
CREATE INDEX "subscribers_env_email_idx" ON "subscribers" USING btree ("environment_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_env_identifier_uq" ON "integrations" USING btree ("environment_id","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_env_channel_primary_uq" ON "integrations" USING btree ("environment_id","channel") WHERE "integrations"."primary" AND NOT "integrations"."deleted";--> statement-breakpoint
CREATE INDEX "integrations_org_active_idx" ON "integrations" USING btree ("organization_id","active");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_groups_env_name_uq" ON "notification_groups" USING btree ("environment_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "workflows_env_identifier_uq" ON "workflows" USING btree ("environment_id","identifier") WHERE NOT "workflows"."deleted";--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_env_identifier_uq" ON "tenants" USING btree ("environment_id","identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "topics_env_key_uq" ON "topics" USING btree ("environment_id","key");--> statement-breakpoint
CREATE INDEX "execution_details_notification_idx" ON "execution_details" USING btree ("notification_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_notification_step_uq" ON "jobs" USING btree ("notification_id","step_index");--> statement-breakpoint
CREATE INDEX "jobs_status_updated_idx" ON "jobs" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "jobs_env_transaction_idx" ON "jobs" USING btree ("environment_id","transaction_id");--> statement-breakpoint
CREATE INDEX "jobs_digest_lookup_idx" ON "jobs" USING btree ("environment_id","subscriber_id","workflow_id","type","status");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_event_subscriber_uq" ON "notifications" USING btree ("event_id","subscriber_id");--> statement-breakpoint
CREATE INDEX "notifications_env_created_idx" ON "notifications" USING btree ("environment_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_env_subscriber_created_idx" ON "notifications" USING btree ("environment_id","subscriber_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_env_transaction_idx" ON "notifications" USING btree ("environment_id","transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trigger_events_env_transaction_uq" ON "trigger_events" USING btree ("environment_id","transaction_id");--> statement-breakpoint
CREATE INDEX "trigger_events_status_idx" ON "trigger_events" USING btree ("status","updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_env_key_uq" ON "idempotency_keys" USING btree ("environment_id","key");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_job_delivery_uq" ON "messages" USING btree ("job_id","delivery_key");--> statement-breakpoint
CREATE INDEX "messages_env_subscriber_channel_created_idx" ON "messages" USING btree ("environment_id","subscriber_id","channel","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_env_transaction_idx" ON "messages" USING btree ("environment_id","transaction_id");