ALTER TABLE "member_codes" ALTER COLUMN "customer_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "branches" ADD COLUMN "receipt_paper" text DEFAULT 'a4' NOT NULL;--> statement-breakpoint
ALTER TABLE "branches" ADD CONSTRAINT "branches_receipt_paper_check" CHECK ("branches"."receipt_paper" IN ('a4', '80mm'));