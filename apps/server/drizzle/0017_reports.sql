CREATE TABLE "collections_by_day" (
	"day" date NOT NULL,
	"branch_id" integer NOT NULL,
	"mode" text NOT NULL,
	"amount" bigint NOT NULL,
	"installments" integer NOT NULL,
	CONSTRAINT "collections_by_day_day_branch_id_mode_pk" PRIMARY KEY("day","branch_id","mode")
);
--> statement-breakpoint
CREATE TABLE "points_by_day" (
	"day" date NOT NULL,
	"branch_id" integer NOT NULL,
	"slot" smallint NOT NULL,
	"issued" bigint NOT NULL,
	"redeemed" bigint NOT NULL,
	"expired" bigint NOT NULL,
	CONSTRAINT "points_by_day_day_branch_id_slot_pk" PRIMARY KEY("day","branch_id","slot")
);
--> statement-breakpoint
CREATE TABLE "points_held" (
	"branch_id" integer NOT NULL,
	"slot" smallint NOT NULL,
	"points" bigint NOT NULL,
	CONSTRAINT "points_held_branch_id_slot_pk" PRIMARY KEY("branch_id","slot")
);
--> statement-breakpoint
CREATE TABLE "schemes_active" (
	"branch_id" integer PRIMARY KEY NOT NULL,
	"schemes" integer NOT NULL,
	"commitment" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "points_lots" ADD COLUMN "branch_id" integer DEFAULT first_branch_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "paid" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "next_due" date GENERATED ALWAYS AS (CASE WHEN paid < installments THEN (startdt + make_interval(months => paid::integer))::date END) STORED;--> statement-breakpoint
ALTER TABLE "collections_by_day" ADD CONSTRAINT "collections_by_day_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_by_day" ADD CONSTRAINT "points_by_day_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_held" ADD CONSTRAINT "points_held_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemes_active" ADD CONSTRAINT "schemes_active_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_lots" ADD CONSTRAINT "points_lots_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "points_lots_branch_idx" ON "points_lots" USING btree ("branch_id","customer_id","remaining") WHERE "points_lots"."remaining" > 0;--> statement-breakpoint
CREATE INDEX "pos_redemptions_created_idx" ON "pos_redemptions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "pos_redemptions_cancelled_idx" ON "pos_redemptions" USING btree ("cancelled_at","id") WHERE "pos_redemptions"."cancelled_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "scheme_installments_day_idx" ON "scheme_installments" USING btree ("paid_on","created_at","id");--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_paid_check" CHECK ("schemes"."paid" >= 0);--> statement-breakpoint
-- HAND-WRITTEN (keep when renumbering): each scheme's installments paid, as they stand; the
-- trigger below keeps the count from here on.
UPDATE "schemes" s SET "paid" = c.n
  FROM (SELECT "scheme_id", count(*)::smallint AS n FROM "scheme_installments" GROUP BY "scheme_id") c
 WHERE s."id" = c."scheme_id";
--> statement-breakpoint
-- HAND-WRITTEN (keep when renumbering): the active schemes, oldest unpaid due date first, with
-- every column the dashboard and the overdue report read (drizzle cannot declare INCLUDE).
CREATE INDEX "schemes_active_idx" ON "schemes" USING btree ("next_due", "id")
  INCLUDE ("branch_id", "amount", "startdt", "matdt", "installments", "paid")
  WHERE "status" = 'a';
--> statement-breakpoint
-- HAND-WRITTEN (keep when renumbering): the active schemes by maturity date, with their branch.
CREATE INDEX "schemes_maturing_idx" ON "schemes" USING btree ("matdt", "id") INCLUDE ("branch_id")
  WHERE "status" = 'a';
--> statement-breakpoint
-- HAND-WRITTEN (keep when renumbering): active schemes and their monthly commitment per
-- branch, as they stand; then kept by the triggers below in each change's own statement (a
-- change of schemes that are not active, such as one started Inactive, writes nothing).
INSERT INTO "schemes_active" ("branch_id", "schemes", "commitment")
SELECT "branch_id", count(*), coalesce(sum("amount") FILTER (WHERE "paid" < "installments"), 0)
  FROM "schemes" WHERE "status" = 'a' GROUP BY "branch_id";
--> statement-breakpoint
CREATE FUNCTION schemes_active_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := TG_ARGV[0]::integer;
BEGIN
  INSERT INTO schemes_active AS t (branch_id, schemes, commitment)
  SELECT c.branch_id, sign * count(*),
         sign * coalesce(sum(c.amount) FILTER (WHERE c.paid < c.installments), 0)
    FROM changed_rows c
   WHERE c.status = 'a'
   GROUP BY c.branch_id
   ORDER BY c.branch_id
  ON CONFLICT (branch_id) DO UPDATE
     SET schemes = t.schemes + excluded.schemes, commitment = t.commitment + excluded.commitment;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER schemes_active_insert AFTER INSERT ON "schemes"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION schemes_active_apply('1');
--> statement-breakpoint
CREATE TRIGGER schemes_active_delete AFTER DELETE ON "schemes"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION schemes_active_apply('-1');
--> statement-breakpoint
CREATE TRIGGER schemes_active_update_old AFTER UPDATE ON "schemes"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION schemes_active_apply('-1');
--> statement-breakpoint
CREATE TRIGGER schemes_active_update_new AFTER UPDATE ON "schemes"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION schemes_active_apply('1');
--> statement-breakpoint
-- HAND-WRITTEN (keep when renumbering): a lot belongs to the branch of the ledger row that
-- gave it; the lots the balances became (no row) stay with the first branch.
UPDATE "points_lots" l SET "branch_id" = e."branch_id"
  FROM "points_entries" e
 WHERE e."mrn" = l."entry_mrn" AND l."branch_id" <> e."branch_id";
--> statement-breakpoint
CREATE FUNCTION points_lots_set_branch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.entry_mrn IS NOT NULL THEN
    NEW.branch_id := (SELECT branch_id FROM points_entries WHERE mrn = NEW.entry_mrn);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER points_lots_branch BEFORE INSERT ON "points_lots"
  FOR EACH ROW WHEN (NEW.entry_mrn IS NOT NULL) EXECUTE FUNCTION points_lots_set_branch();
--> statement-breakpoint
-- HAND-WRITTEN (keep when renumbering): the points held per branch, from the lots as they
-- stand; then kept by the triggers below in each lot change's own statement (slots as for
-- points_by_day).
INSERT INTO "points_held" ("branch_id", "slot", "points")
SELECT "branch_id", 0, sum("remaining") FROM "points_lots" GROUP BY "branch_id";
--> statement-breakpoint
CREATE FUNCTION points_held_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := TG_ARGV[0]::integer;
  my_slot smallint := (pg_current_xact_id()::text::bigint % 8)::smallint;
BEGIN
  INSERT INTO points_held AS t (branch_id, slot, points)
  SELECT c.branch_id, my_slot, sign * sum(c.remaining)
    FROM changed_rows c
   GROUP BY c.branch_id
   ORDER BY c.branch_id
  ON CONFLICT (branch_id, slot) DO UPDATE SET points = t.points + excluded.points;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER points_held_insert AFTER INSERT ON "points_lots"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION points_held_apply('1');
--> statement-breakpoint
CREATE TRIGGER points_held_delete AFTER DELETE ON "points_lots"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION points_held_apply('-1');
--> statement-breakpoint
CREATE TRIGGER points_held_update_old AFTER UPDATE ON "points_lots"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION points_held_apply('-1');
--> statement-breakpoint
CREATE TRIGGER points_held_update_new AFTER UPDATE ON "points_lots"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION points_held_apply('1');
--> statement-breakpoint
-- HAND-WRITTEN (keep when renumbering): the daily points figures from the ledger as it stands,
-- then kept by the triggers below in each change's own statement. Issued: sale and staff
-- credits less returns; redeemed: counter redemptions less their cancels, and staff
-- deductions; expired: the expiry's rows. Per row, issued - redeemed - expired = credit - debit.
INSERT INTO "points_by_day" ("day", "branch_id", "slot", "issued", "redeemed", "expired")
SELECT "invdate", "branch_id", 0,
       sum(CASE WHEN "ts" IN ('S', 'X') THEN "credit" - "debit" WHEN "ts" = 'M' THEN "credit" ELSE 0 END),
       sum(CASE WHEN "ts" = 'R' THEN "debit" - "credit" WHEN "ts" = 'M' THEN "debit" ELSE 0 END),
       sum(CASE WHEN "ts" = 'E' THEN "debit" - "credit" ELSE 0 END)
  FROM "points_entries"
 GROUP BY "invdate", "branch_id";
--> statement-breakpoint
-- One statement's rows (changed_rows: the inserted, the deleted, or an update's rows before or
-- after) added (TG_ARGV[0] = 1) or taken away (-1). A transaction adds to one of eight slot rows
-- of a day and branch, by its id, so concurrent postings seldom wait on one row; the groups are
-- written in key order, so one statement's rows are always locked in the same order.
CREATE FUNCTION points_by_day_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := TG_ARGV[0]::integer;
  my_slot smallint := (pg_current_xact_id()::text::bigint % 8)::smallint;
BEGIN
  INSERT INTO points_by_day AS t (day, branch_id, slot, issued, redeemed, expired)
  SELECT c.invdate, c.branch_id, my_slot,
         sign * sum(CASE WHEN c.ts IN ('S', 'X') THEN c.credit - c.debit WHEN c.ts = 'M' THEN c.credit ELSE 0 END),
         sign * sum(CASE WHEN c.ts = 'R' THEN c.debit - c.credit WHEN c.ts = 'M' THEN c.debit ELSE 0 END),
         sign * sum(CASE WHEN c.ts = 'E' THEN c.debit - c.credit ELSE 0 END)
    FROM changed_rows c
   GROUP BY c.invdate, c.branch_id
   ORDER BY c.invdate, c.branch_id
  ON CONFLICT (day, branch_id, slot) DO UPDATE
     SET issued = t.issued + excluded.issued,
         redeemed = t.redeemed + excluded.redeemed,
         expired = t.expired + excluded.expired;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER points_by_day_insert AFTER INSERT ON "points_entries"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION points_by_day_apply('1');
--> statement-breakpoint
CREATE TRIGGER points_by_day_delete AFTER DELETE ON "points_entries"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION points_by_day_apply('-1');
--> statement-breakpoint
CREATE TRIGGER points_by_day_update_old AFTER UPDATE ON "points_entries"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION points_by_day_apply('-1');
--> statement-breakpoint
CREATE TRIGGER points_by_day_update_new AFTER UPDATE ON "points_entries"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION points_by_day_apply('1');
--> statement-breakpoint
-- HAND-WRITTEN (keep when renumbering): installments received per day, branch and mode, as
-- they stand; kept from here on by the triggers below, which keep each scheme's count too.
INSERT INTO "collections_by_day" ("day", "branch_id", "mode", "amount", "installments")
SELECT "paid_on", "branch_id", "mode", sum("amount"), count(*)
  FROM "scheme_installments"
 GROUP BY "paid_on", "branch_id", "mode";
--> statement-breakpoint
CREATE FUNCTION installments_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := TG_ARGV[0]::integer;
BEGIN
  INSERT INTO collections_by_day AS t (day, branch_id, mode, amount, installments)
  SELECT c.paid_on, c.branch_id, c.mode, sign * sum(c.amount), sign * count(*)
    FROM changed_rows c
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
--> statement-breakpoint
CREATE TRIGGER installments_insert AFTER INSERT ON "scheme_installments"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION installments_apply('1');
--> statement-breakpoint
CREATE TRIGGER installments_delete AFTER DELETE ON "scheme_installments"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION installments_apply('-1');
--> statement-breakpoint
CREATE TRIGGER installments_update_old AFTER UPDATE ON "scheme_installments"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION installments_apply('-1');
--> statement-breakpoint
CREATE TRIGGER installments_update_new AFTER UPDATE ON "scheme_installments"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION installments_apply('1');
