ALTER TABLE "online_extra_payments" ADD COLUMN "refund_reference" text;--> statement-breakpoint
ALTER TABLE "online_orders" ADD COLUMN "refund_reference" text;