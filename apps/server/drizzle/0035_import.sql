ALTER TABLE "points_entries" DROP CONSTRAINT "points_entries_source_check";--> statement-breakpoint
ALTER TABLE "scheme_installments" DROP CONSTRAINT "scheme_installments_mode_check";--> statement-breakpoint
ALTER TABLE "scheme_installments" ALTER COLUMN "receipt_no" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "points_entries" ADD CONSTRAINT "points_entries_source_check" CHECK ("points_entries"."ts" IN ('M', 'S', 'X', 'R', 'E', 'O'));--> statement-breakpoint
ALTER TABLE "scheme_installments" ADD CONSTRAINT "scheme_installments_receipt_check" CHECK ("scheme_installments"."receipt_no" IS NOT NULL OR "scheme_installments"."mode" = 'imported');--> statement-breakpoint
ALTER TABLE "scheme_installments" ADD CONSTRAINT "scheme_installments_mode_check" CHECK ("scheme_installments"."mode" IN ('cash', 'upi', 'card', 'bank', 'cheque', 'online', 'imported'));--> statement-breakpoint
-- HAND-WRITTEN (keep when renumbering): installments brought in from other software were
-- collected there, not at a Kanak counter: they count towards their scheme's installments
-- paid, never towards a day's collections.
CREATE OR REPLACE FUNCTION installments_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := TG_ARGV[0]::integer;
BEGIN
  INSERT INTO collections_by_day AS t (day, branch_id, mode, amount, installments)
  SELECT c.paid_on, c.branch_id, c.mode, sign * sum(c.amount), sign * count(*)
    FROM changed_rows c
   WHERE c.mode <> 'imported'
   GROUP BY c.paid_on, c.branch_id, c.mode
   ORDER BY c.paid_on, c.branch_id, c.mode
  ON CONFLICT (day, branch_id, mode) DO UPDATE
     SET amount = t.amount + excluded.amount,
         installments = t.installments + excluded.installments;
  UPDATE schemes s SET paid = s.paid + sign * c.n
    FROM (SELECT scheme_id, count(*)::integer AS n FROM changed_rows GROUP BY scheme_id) c
   WHERE s.id = c.scheme_id;
  RETURN NULL;
END $$;
