CREATE TABLE "gold_rates" (
	"rate_date" date PRIMARY KEY NOT NULL,
	"rate22k_paise" integer NOT NULL,
	"rate24k_paise" integer NOT NULL,
	"created_by" integer,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gold_rates_rate22k_check" CHECK ("gold_rates"."rate22k_paise" > 0),
	CONSTRAINT "gold_rates_rate24k_check" CHECK ("gold_rates"."rate24k_paise" > 0)
);
--> statement-breakpoint
ALTER TABLE "gold_rates" ADD CONSTRAINT "gold_rates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gold_rates" ADD CONSTRAINT "gold_rates_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;