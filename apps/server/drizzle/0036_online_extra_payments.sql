CREATE TABLE "online_extra_payments" (
	"payment_id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"amount_paise" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "online_extra_payments" ADD CONSTRAINT "online_extra_payments_order_id_online_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."online_orders"("order_id") ON DELETE no action ON UPDATE no action;