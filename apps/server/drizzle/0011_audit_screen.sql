ALTER TABLE "audit_log" ADD COLUMN "mobile" text;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_log_user_at_idx" ON "audit_log" USING btree ("user_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_log_entity_at_idx" ON "audit_log" USING btree ("entity","at","id");--> statement-breakpoint
CREATE INDEX "audit_log_mobile_at_idx" ON "audit_log" USING btree ("mobile","at","id") WHERE "audit_log"."mobile" IS NOT NULL;--> statement-breakpoint
-- HAND-WRITTEN (not generated): the changes recorded before this migration learn the mobile
-- number of the customer they concern, so the Audit screen's mobile filter finds them too.
UPDATE "audit_log" a SET "mobile" = c."mobileno"
FROM "customers" c
WHERE a."entity" = 'customer' AND a."entity_id" ~ '^[0-9]{1,9}$' AND c."id" = a."entity_id"::integer;--> statement-breakpoint
UPDATE "audit_log" a SET "mobile" = c."mobileno"
FROM "points_entries" p JOIN "customers" c ON c."id" = p."customer_id"
WHERE a."entity" = 'points_entry' AND a."entity_id" ~ '^[0-9]{1,18}$' AND p."mrn" = a."entity_id"::bigint;--> statement-breakpoint
UPDATE "audit_log" a SET "mobile" = c."mobileno"
FROM "schemes" s JOIN "customers" c ON c."id" = s."customer_id"
WHERE a."entity" = 'scheme' AND a."entity_id" ~ '^[0-9]{1,9}$' AND s."id" = a."entity_id"::integer;
