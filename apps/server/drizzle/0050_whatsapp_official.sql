CREATE TABLE "whatsapp_templates" (
	"name" text NOT NULL,
	"language" text NOT NULL,
	"category" text NOT NULL,
	"status" text NOT NULL,
	"parameters" smallint NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "whatsapp_templates_name_language_pk" PRIMARY KEY("name","language"),
	CONSTRAINT "whatsapp_templates_category_check" CHECK ("whatsapp_templates"."category" IN ('MARKETING', 'UTILITY', 'AUTHENTICATION')),
	CONSTRAINT "whatsapp_templates_parameters_check" CHECK ("whatsapp_templates"."parameters" >= 0)
);
--> statement-breakpoint
ALTER TABLE "panel_config" DROP CONSTRAINT "panel_config_panel_check";--> statement-breakpoint
ALTER TABLE "panel_config" ADD COLUMN "business_account_id" text;--> statement-breakpoint
ALTER TABLE "panel_config" ADD COLUMN "app_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "panel_config" ADD COLUMN "webhook_verify_token_sealed" text;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "notices_provider_message_idx" ON "notices" USING btree ("provider_message_id") WHERE "notices"."provider_message_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "panel_config" ADD CONSTRAINT "panel_config_official_check" CHECK ("panel_config"."panel" <> 4 OR ("panel_config"."business_account_id" IS NOT NULL AND "panel_config"."app_secret_sealed" IS NOT NULL AND "panel_config"."webhook_verify_token_sealed" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "panel_config" ADD CONSTRAINT "panel_config_panel_check" CHECK ("panel_config"."panel" BETWEEN 1 AND 4);