CREATE TABLE "customer_consents" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "customer_consents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"granted" boolean NOT NULL,
	"method" text NOT NULL,
	"notice_version" text NOT NULL,
	"recorded_by" integer,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_consents_purpose_check" CHECK ("customer_consents"."purpose" IN ('transactional', 'marketing'))
);
--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "mobileno" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "erased_by" integer;--> statement-breakpoint
ALTER TABLE "customer_consents" ADD CONSTRAINT "customer_consents_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_consents" ADD CONSTRAINT "customer_consents_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_consents_customer_idx" ON "customer_consents" USING btree ("customer_id","purpose","id");--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_erased_by_users_id_fk" FOREIGN KEY ("erased_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_mobileno_erased_check" CHECK ("customers"."mobileno" IS NOT NULL OR "customers"."erased_at" IS NOT NULL);