CREATE TABLE "receipt_counter" (
	"id" smallint PRIMARY KEY NOT NULL,
	"last_no" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheme_installments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "scheme_installments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"scheme_id" integer NOT NULL,
	"receipt_no" bigint NOT NULL,
	"paid_on" date NOT NULL,
	"period" char(7) NOT NULL,
	"amount" integer NOT NULL,
	"mode" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"narration" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheme_installments_mode_check" CHECK ("scheme_installments"."mode" IN ('cash', 'upi', 'card', 'bank', 'cheque')),
	CONSTRAINT "scheme_installments_amount_check" CHECK ("scheme_installments"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "schemes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "schemes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"startdt" date NOT NULL,
	"matdt" date NOT NULL,
	"amount" integer NOT NULL,
	"installments" smallint NOT NULL,
	"status" char(1) DEFAULT 'n' NOT NULL,
	"bonus" integer,
	"maturity_value" bigint,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_by" integer,
	"cancelled_at" timestamp with time zone,
	"closed_by" integer,
	"closed_on" date,
	CONSTRAINT "schemes_status_check" CHECK ("schemes"."status" IN ('n', 'a', 'm', 'x')),
	CONSTRAINT "schemes_amount_check" CHECK ("schemes"."amount" BETWEEN 1 AND 9999999)
);
--> statement-breakpoint
ALTER TABLE "scheme_installments" ADD CONSTRAINT "scheme_installments_scheme_id_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."schemes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheme_installments" ADD CONSTRAINT "scheme_installments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scheme_installments_month_key" ON "scheme_installments" USING btree ("scheme_id","period");--> statement-breakpoint
CREATE UNIQUE INDEX "scheme_installments_receipt_key" ON "scheme_installments" USING btree ("receipt_no");--> statement-breakpoint
CREATE UNIQUE INDEX "schemes_one_inactive_per_customer" ON "schemes" USING btree ("customer_id") WHERE "schemes"."status" = 'n';--> statement-breakpoint
CREATE INDEX "schemes_customer_idx" ON "schemes" USING btree ("customer_id","id");--> statement-breakpoint
CREATE INDEX "schemes_startdt_idx" ON "schemes" USING btree ("startdt");--> statement-breakpoint
INSERT INTO "receipt_counter" ("id", "last_no") VALUES (1, 0);
