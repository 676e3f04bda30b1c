CREATE TABLE "shop_settings" (
	"id" smallint PRIMARY KEY NOT NULL,
	"company_name" text NOT NULL,
	"tagline" text NOT NULL,
	"gstin" text NOT NULL,
	"support_phone" text NOT NULL,
	"powered_by" text NOT NULL,
	"logo" "bytea",
	"logo_mime" text,
	"logo_sha256" text,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_settings_one_row_check" CHECK ("shop_settings"."id" = 1),
	CONSTRAINT "shop_settings_logo_check" CHECK (("shop_settings"."logo" IS NULL AND "shop_settings"."logo_mime" IS NULL AND "shop_settings"."logo_sha256" IS NULL)
        OR ("shop_settings"."logo_mime" IN ('image/png', 'image/jpeg') AND "shop_settings"."logo_sha256" IS NOT NULL
            AND octet_length("shop_settings"."logo") BETWEEN 1 AND 262144))
);
--> statement-breakpoint
ALTER TABLE "shop_settings" ADD CONSTRAINT "shop_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;