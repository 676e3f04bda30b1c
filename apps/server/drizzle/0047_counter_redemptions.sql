CREATE TABLE "counter_redemptions" (
	"entry_mrn" bigint PRIMARY KEY NOT NULL,
	"invoice_no" text DEFAULT '' NOT NULL,
	"value_paise" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "counter_redemptions" ADD CONSTRAINT "counter_redemptions_entry_mrn_points_entries_mrn_fk" FOREIGN KEY ("entry_mrn") REFERENCES "public"."points_entries"("mrn") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Staff redemptions made before this table kept their bill and worth only in the narration
-- Kanak wrote for them ("Redemption at the counter[, invoice <no>], value ₹<r.pp>").
INSERT INTO "counter_redemptions" ("entry_mrn", "invoice_no", "value_paise")
SELECT e."mrn",
       coalesce(substring(e."narration" from '^Redemption at the counter, invoice (.*), value ₹[0-9]+\.[0-9]{2}$'), ''),
       round(substring(e."narration" from ', value ₹([0-9]+\.[0-9]{2})$')::numeric * 100)::bigint
  FROM "points_entries" e
 WHERE e."ts" = 'R' AND e."created_by" IS NOT NULL AND e."debit" > 0
   AND e."narration" ~ '^Redemption at the counter(, invoice .*)?, value ₹[0-9]+\.[0-9]{2}$'
   AND NOT EXISTS (SELECT 1 FROM "pos_redemptions" p WHERE p."entry_mrn" = e."mrn");
