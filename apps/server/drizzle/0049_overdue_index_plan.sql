-- HAND-WRITTEN (keep when renumbering): the active schemes' index, oldest unpaid due date
-- first, now also holding each scheme's plan, whose grace decides when its installments are
-- overdue, so the overdue report and the dashboard still read the index alone (drizzle cannot
-- declare INCLUDE).
DROP INDEX IF EXISTS "schemes_active_idx";
--> statement-breakpoint
CREATE INDEX "schemes_active_idx" ON "schemes" USING btree ("next_due", "id")
  INCLUDE ("branch_id", "amount", "startdt", "matdt", "installments", "paid", "plan_id")
  WHERE "status" = 'a';
