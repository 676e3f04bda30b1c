CREATE TABLE "backup_tickets" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"backup_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"token_version" integer NOT NULL,
	"jti" text,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "backups" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "backups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"file_name" text,
	"size_bytes" bigint,
	"duration_ms" integer,
	"result" text NOT NULL,
	"reason" text,
	"trigger" text NOT NULL,
	"user_id" integer,
	CONSTRAINT "backups_result_check" CHECK ("backups"."result" IN ('running', 'good', 'failed')),
	CONSTRAINT "backups_trigger_check" CHECK ("backups"."trigger" IN ('schedule', 'browser', 'command')),
	CONSTRAINT "backups_good_has_file_check" CHECK ("backups"."result" <> 'good' OR ("backups"."file_name" IS NOT NULL AND "backups"."size_bytes" IS NOT NULL AND "backups"."finished_at" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "backup_tickets" ADD CONSTRAINT "backup_tickets_backup_id_backups_id_fk" FOREIGN KEY ("backup_id") REFERENCES "public"."backups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backup_tickets" ADD CONSTRAINT "backup_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backups" ADD CONSTRAINT "backups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backup_tickets_expires_at_idx" ON "backup_tickets" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "backups_good_idx" ON "backups" USING btree ("started_at" DESC NULLS LAST) WHERE "backups"."result" = 'good';