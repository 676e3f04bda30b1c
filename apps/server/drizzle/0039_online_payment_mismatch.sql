ALTER TABLE "online_orders" DROP CONSTRAINT "online_orders_status_check";--> statement-breakpoint
ALTER TABLE "online_orders" ADD COLUMN "received_paise" bigint;--> statement-breakpoint
CREATE INDEX "online_orders_customer_open_idx" ON "online_orders" USING btree ("customer_id","created_at") WHERE "online_orders"."status" = 'created';--> statement-breakpoint
ALTER TABLE "online_orders" ADD CONSTRAINT "online_orders_status_check" CHECK ("online_orders"."status" IN ('created', 'paid', 'overpaid', 'mismatch'));