CREATE TABLE "customer_tiers" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"earned_code" text,
	"earned_on" date,
	"review_on" date,
	"manual_code" text,
	"manual_until" date,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tier_settings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tier_settings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"valid_from" timestamp with time zone DEFAULT now() NOT NULL,
	"tiers" jsonb NOT NULL,
	"downgrade" text NOT NULL,
	"created_by" integer,
	CONSTRAINT "tier_settings_downgrade_check" CHECK ("tier_settings"."downgrade" IN ('anniversary', 'never'))
);
--> statement-breakpoint
ALTER TABLE "customer_tiers" ADD CONSTRAINT "customer_tiers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tier_settings" ADD CONSTRAINT "tier_settings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_tiers_review_idx" ON "customer_tiers" USING btree ("review_on","customer_id") WHERE "customer_tiers"."review_on" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "tier_settings_valid_from_idx" ON "tier_settings" USING btree ("valid_from");--> statement-breakpoint
CREATE INDEX "pos_sales_customer_idx" ON "pos_sales" USING btree ("customer_id","invoice_date");