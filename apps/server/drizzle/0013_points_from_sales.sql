CREATE TABLE "api_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "api_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"label" text NOT NULL,
	"key_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"branch_id" integer DEFAULT first_branch_id() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "points_lot_takes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "points_lot_takes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entry_mrn" bigint NOT NULL,
	"lot_id" bigint NOT NULL,
	"points" integer NOT NULL,
	CONSTRAINT "points_lot_takes_points_check" CHECK ("points_lot_takes"."points" > 0)
);
--> statement-breakpoint
CREATE TABLE "points_lots" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "points_lots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"entry_mrn" bigint,
	"earned_on" date NOT NULL,
	"expires_on" date,
	"points" integer NOT NULL,
	"remaining" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "points_lots_remaining_check" CHECK ("points_lots"."remaining" >= 0)
);
--> statement-breakpoint
CREATE TABLE "points_rules" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "points_rules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"valid_from" timestamp with time zone DEFAULT now() NOT NULL,
	"rupees_per_point_paise" integer NOT NULL,
	"excluded_categories" jsonb NOT NULL,
	"point_value_paise" integer NOT NULL,
	"min_redeem_points" integer NOT NULL,
	"expiry_months" smallint NOT NULL,
	"created_by" integer,
	CONSTRAINT "points_rules_rupees_per_point_check" CHECK ("points_rules"."rupees_per_point_paise" > 0),
	CONSTRAINT "points_rules_point_value_check" CHECK ("points_rules"."point_value_paise" >= 0),
	CONSTRAINT "points_rules_min_redeem_check" CHECK ("points_rules"."min_redeem_points" >= 0),
	CONSTRAINT "points_rules_expiry_check" CHECK ("points_rules"."expiry_months" BETWEEN 0 AND 120)
);
--> statement-breakpoint
CREATE TABLE "pos_redemptions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pos_redemptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"branch_code" text NOT NULL,
	"invoice_no" text NOT NULL,
	"request_hash" text NOT NULL,
	"customer_id" integer,
	"points" integer DEFAULT 0 NOT NULL,
	"value_paise" bigint DEFAULT 0 NOT NULL,
	"entry_mrn" bigint,
	"response" jsonb,
	"cancelled_at" timestamp with time zone,
	"cancel_entry_mrn" bigint,
	"api_key_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pos_returns" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pos_returns_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"branch_code" text NOT NULL,
	"return_no" text NOT NULL,
	"request_hash" text NOT NULL,
	"sale_id" bigint,
	"return_date" date NOT NULL,
	"amount_paise" bigint DEFAULT 0 NOT NULL,
	"eligible_paise" bigint DEFAULT 0 NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"unrecovered" integer DEFAULT 0 NOT NULL,
	"entry_mrn" bigint,
	"response" jsonb,
	"api_key_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pos_sales" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pos_sales_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"branch_code" text NOT NULL,
	"invoice_no" text NOT NULL,
	"request_hash" text NOT NULL,
	"customer_id" integer,
	"invoice_date" date NOT NULL,
	"sale_amount_paise" bigint NOT NULL,
	"eligible_paise" bigint NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"excluded_categories" jsonb NOT NULL,
	"entry_mrn" bigint,
	"response" jsonb,
	"api_key_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "points_entries" DROP CONSTRAINT "points_entries_source_check";--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_lot_takes" ADD CONSTRAINT "points_lot_takes_entry_mrn_points_entries_mrn_fk" FOREIGN KEY ("entry_mrn") REFERENCES "public"."points_entries"("mrn") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_lot_takes" ADD CONSTRAINT "points_lot_takes_lot_id_points_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."points_lots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_lots" ADD CONSTRAINT "points_lots_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_lots" ADD CONSTRAINT "points_lots_entry_mrn_points_entries_mrn_fk" FOREIGN KEY ("entry_mrn") REFERENCES "public"."points_entries"("mrn") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_rules" ADD CONSTRAINT "points_rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pos_redemptions" ADD CONSTRAINT "pos_redemptions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pos_redemptions" ADD CONSTRAINT "pos_redemptions_entry_mrn_points_entries_mrn_fk" FOREIGN KEY ("entry_mrn") REFERENCES "public"."points_entries"("mrn") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pos_redemptions" ADD CONSTRAINT "pos_redemptions_cancel_entry_mrn_points_entries_mrn_fk" FOREIGN KEY ("cancel_entry_mrn") REFERENCES "public"."points_entries"("mrn") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pos_returns" ADD CONSTRAINT "pos_returns_sale_id_pos_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."pos_sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pos_returns" ADD CONSTRAINT "pos_returns_entry_mrn_points_entries_mrn_fk" FOREIGN KEY ("entry_mrn") REFERENCES "public"."points_entries"("mrn") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pos_sales" ADD CONSTRAINT "pos_sales_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pos_sales" ADD CONSTRAINT "pos_sales_entry_mrn_points_entries_mrn_fk" FOREIGN KEY ("entry_mrn") REFERENCES "public"."points_entries"("mrn") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "points_lot_takes_entry_idx" ON "points_lot_takes" USING btree ("entry_mrn");--> statement-breakpoint
CREATE INDEX "points_lots_customer_idx" ON "points_lots" USING btree ("customer_id","expires_on","id") WHERE "points_lots"."remaining" > 0;--> statement-breakpoint
CREATE INDEX "points_lots_due_idx" ON "points_lots" USING btree ("expires_on") WHERE "points_lots"."remaining" > 0 AND "points_lots"."expires_on" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "points_lots_entry_key" ON "points_lots" USING btree ("entry_mrn");--> statement-breakpoint
CREATE INDEX "points_rules_valid_from_idx" ON "points_rules" USING btree ("valid_from");--> statement-breakpoint
CREATE UNIQUE INDEX "pos_redemptions_invoice_key" ON "pos_redemptions" USING btree ("branch_code","invoice_no");--> statement-breakpoint
CREATE UNIQUE INDEX "pos_returns_return_key" ON "pos_returns" USING btree ("branch_code","return_no");--> statement-breakpoint
CREATE INDEX "pos_returns_sale_idx" ON "pos_returns" USING btree ("sale_id");--> statement-breakpoint
CREATE INDEX "pos_returns_unrecovered_idx" ON "pos_returns" USING btree ("created_at") WHERE "pos_returns"."unrecovered" > 0;--> statement-breakpoint
CREATE UNIQUE INDEX "pos_sales_invoice_key" ON "pos_sales" USING btree ("branch_code","invoice_no");--> statement-breakpoint
ALTER TABLE "points_entries" ADD CONSTRAINT "points_entries_source_check" CHECK ("points_entries"."ts" IN ('M', 'S', 'X', 'R', 'E'));--> statement-breakpoint
-- HAND-WRITTEN (keep when renumbering): the default points rules, valid from the beginning.
INSERT INTO "points_rules" ("valid_from", "rupees_per_point_paise", "excluded_categories", "point_value_paise", "min_redeem_points", "expiry_months")
VALUES ('2000-01-01T00:00:00Z', 10000, '["coin", "bullion"]'::jsonb, 100, 100, 24);
--> statement-breakpoint
-- HAND-WRITTEN (keep when renumbering): every existing balance becomes one lot earned on the
-- day of the migration, expiring after the default 24 months.
INSERT INTO "points_lots" ("customer_id", "entry_mrn", "earned_on", "expires_on", "points", "remaining")
SELECT "id", NULL, current_date, (current_date + interval '24 months')::date, "points_balance", "points_balance"
FROM "customers" WHERE "points_balance" > 0;
