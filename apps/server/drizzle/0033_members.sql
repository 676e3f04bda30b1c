CREATE TABLE "gateway_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_codes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "member_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"mobile_hash" text NOT NULL,
	"customer_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"tries" smallint DEFAULT 0 NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_sessions" (
	"jti" uuid PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "online_orders" (
	"order_id" text PRIMARY KEY NOT NULL,
	"scheme_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"period" char(7) NOT NULL,
	"amount_paise" bigint NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"payment_id" text,
	"installment_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	CONSTRAINT "online_orders_payment_id_unique" UNIQUE("payment_id"),
	CONSTRAINT "online_orders_status_check" CHECK ("online_orders"."status" IN ('created', 'paid', 'overpaid'))
);
--> statement-breakpoint
ALTER TABLE "scheme_installments" DROP CONSTRAINT "scheme_installments_mode_check";--> statement-breakpoint
ALTER TABLE "member_codes" ADD CONSTRAINT "member_codes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_sessions" ADD CONSTRAINT "member_sessions_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_orders" ADD CONSTRAINT "online_orders_scheme_id_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."schemes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_orders" ADD CONSTRAINT "online_orders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "online_orders" ADD CONSTRAINT "online_orders_installment_id_scheme_installments_id_fk" FOREIGN KEY ("installment_id") REFERENCES "public"."scheme_installments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_codes_mobile_idx" ON "member_codes" USING btree ("mobile_hash","id");--> statement-breakpoint
CREATE INDEX "member_sessions_customer_idx" ON "member_sessions" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "online_orders_open_idx" ON "online_orders" USING btree ("created_at") WHERE "online_orders"."status" = 'created';--> statement-breakpoint
ALTER TABLE "scheme_installments" ADD CONSTRAINT "scheme_installments_mode_check" CHECK ("scheme_installments"."mode" IN ('cash', 'upi', 'card', 'bank', 'cheque', 'online'));