CREATE TABLE "app_images" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "app_images_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"mime" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"storage_key" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_images_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "app_images_type_check" CHECK ("app_images"."type" IN ('banner', 'card')),
	CONSTRAINT "app_images_mime_check" CHECK ("app_images"."mime" IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp')),
	CONSTRAINT "app_images_size_check" CHECK ("app_images"."size_bytes" BETWEEN 1 AND 5242880)
);
--> statement-breakpoint
CREATE TABLE "panel_config" (
	"id" smallint PRIMARY KEY NOT NULL,
	"instance_id" text NOT NULL,
	"token_sealed" text NOT NULL,
	"panel" smallint NOT NULL,
	"phone" varchar(10) NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "panel_config_single_row_check" CHECK ("panel_config"."id" = 1),
	CONSTRAINT "panel_config_panel_check" CHECK ("panel_config"."panel" BETWEEN 1 AND 3)
);
--> statement-breakpoint
ALTER TABLE "app_images" ADD CONSTRAINT "app_images_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "panel_config" ADD CONSTRAINT "panel_config_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_images_type_idx" ON "app_images" USING btree ("type","id");--> statement-breakpoint
-- Images are already compressed: keep them out of line without trying to compress them again.
ALTER TABLE "app_images" ALTER COLUMN "data" SET STORAGE EXTERNAL;
