CREATE TABLE "scheme_plans" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "scheme_plans_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"installments" smallint NOT NULL,
	"min_amount" integer NOT NULL,
	"bonus_percent" smallint NOT NULL,
	"grace_days" smallint NOT NULL,
	"redeem_within_days" smallint NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheme_plans_code_key" UNIQUE("code"),
	CONSTRAINT "scheme_plans_kind_check" CHECK ("scheme_plans"."kind" IN ('value', 'weight')),
	CONSTRAINT "scheme_plans_installments_check" CHECK ("scheme_plans"."installments" BETWEEN 1 AND 11),
	CONSTRAINT "scheme_plans_min_amount_check" CHECK ("scheme_plans"."min_amount" >= 1),
	CONSTRAINT "scheme_plans_bonus_check" CHECK ("scheme_plans"."bonus_percent" >= 0),
	CONSTRAINT "scheme_plans_grace_check" CHECK ("scheme_plans"."grace_days" >= 0),
	CONSTRAINT "scheme_plans_redeem_check" CHECK ("scheme_plans"."redeem_within_days" >= 1)
);
--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "state" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "scheme_installments" ADD COLUMN "rate22k_paise" integer;--> statement-breakpoint
ALTER TABLE "scheme_installments" ADD COLUMN "mg" integer;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "plan_id" integer;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "closing_rate_paise" integer;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "bonus_mg" integer;--> statement-breakpoint
ALTER TABLE "scheme_plans" ADD CONSTRAINT "scheme_plans_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheme_plans" ADD CONSTRAINT "scheme_plans_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_plan_id_scheme_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."scheme_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schemes_plan_idx" ON "schemes" USING btree ("plan_id","status") WHERE "schemes"."plan_id" IS NOT NULL;--> statement-breakpoint
-- The specification's scheme as plan STD; its installments and bonus are the server's settings.
INSERT INTO "scheme_plans" ("code", "name", "kind", "installments", "min_amount", "bonus_percent", "grace_days", "redeem_within_days")
VALUES ('STD', 'Standard scheme', 'value', 11, 1, 100, 7, 60);
