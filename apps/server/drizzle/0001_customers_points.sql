-- Trigram search on customer names (trusted extension: the database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "customers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"mobileno" varchar(10) NOT NULL,
	"custname" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"pincode" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"dob" date,
	"doa" date,
	"aadhaar_sealed" text,
	"aadhaar_last4" varchar(4),
	"pan" text DEFAULT '' NOT NULL,
	"points_balance" bigint DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_points_balance_check" CHECK ("customers"."points_balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "points_entries" (
	"mrn" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "points_entries_mrn_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"invdate" date NOT NULL,
	"narration" text NOT NULL,
	"sale_amount_paise" bigint DEFAULT 0 NOT NULL,
	"credit" integer DEFAULT 0 NOT NULL,
	"debit" integer DEFAULT 0 NOT NULL,
	"ts" char(1) NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone,
	CONSTRAINT "points_entries_one_side_check" CHECK ("points_entries"."credit" >= 0 AND "points_entries"."debit" >= 0 AND ("points_entries"."credit" = 0 OR "points_entries"."debit" = 0)),
	CONSTRAINT "points_entries_source_check" CHECK ("points_entries"."ts" IN ('M', 'S'))
);
--> statement-breakpoint
CREATE TABLE "points_entry_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "points_entry_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"mrn" bigint NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"changed_by" integer,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_entries" ADD CONSTRAINT "points_entries_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_entries" ADD CONSTRAINT "points_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_entries" ADD CONSTRAINT "points_entries_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_entry_history" ADD CONSTRAINT "points_entry_history_mrn_points_entries_mrn_fk" FOREIGN KEY ("mrn") REFERENCES "public"."points_entries"("mrn") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_entry_history" ADD CONSTRAINT "points_entry_history_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_mobileno_key" ON "customers" USING btree ("mobileno" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "customers_custname_trgm_idx" ON "customers" USING gist ("custname" gist_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_custname_prefix_idx" ON "customers" USING btree (lower("custname") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "points_entries_statement_idx" ON "points_entries" USING btree ("customer_id","invdate","mrn");--> statement-breakpoint
CREATE INDEX "points_entry_history_mrn_idx" ON "points_entry_history" USING btree ("mrn");