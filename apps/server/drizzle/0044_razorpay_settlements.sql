CREATE TABLE "razorpay_settlements" (
	"id" text PRIMARY KEY NOT NULL,
	"amount_paise" bigint NOT NULL,
	"fees_paise" bigint NOT NULL,
	"tax_paise" bigint NOT NULL,
	"utr" text,
	"settled_at" timestamp with time zone NOT NULL,
	"settled_on" date NOT NULL,
	"payments" integer,
	"payments_paise" bigint,
	"refunds_paise" bigint,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"recorded_by" integer,
	CONSTRAINT "razorpay_settlements_amounts_check" CHECK ("razorpay_settlements"."amount_paise" >= 0 AND "razorpay_settlements"."tax_paise" >= 0 AND "razorpay_settlements"."fees_paise" >= "razorpay_settlements"."tax_paise")
);
--> statement-breakpoint
ALTER TABLE "razorpay_settlements" ADD CONSTRAINT "razorpay_settlements_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "razorpay_settlements_settled_on_idx" ON "razorpay_settlements" USING btree ("settled_on","settled_at");