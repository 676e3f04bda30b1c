CREATE TABLE "accounting_settings" (
	"id" smallint PRIMARY KEY NOT NULL,
	"company" text NOT NULL,
	"ledgers" jsonb NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounting_settings_one_row_check" CHECK ("accounting_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "tally_pushed_vouchers" (
	"remote_id" text PRIMARY KEY NOT NULL,
	"first_pushed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_pushed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"pushed_by" integer
);
--> statement-breakpoint
ALTER TABLE "accounting_settings" ADD CONSTRAINT "accounting_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tally_pushed_vouchers" ADD CONSTRAINT "tally_pushed_vouchers_pushed_by_users_id_fk" FOREIGN KEY ("pushed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;