CREATE TABLE "schemes_by_start" (
	"startdt" date NOT NULL,
	"status" char(1) NOT NULL,
	"slot" smallint NOT NULL,
	"schemes" integer NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "schemes_by_start_startdt_status_slot_pk" PRIMARY KEY("startdt","status","slot")
);
--> statement-breakpoint
-- HAND-WRITTEN (keep when renumbering): the schemes per start date and status as they stand;
-- then kept by the triggers below in each change's own statement.
INSERT INTO "schemes_by_start" ("startdt", "status", "slot", "schemes", "amount")
SELECT "startdt", "status", 0, count(*), sum("amount") FROM "schemes" GROUP BY "startdt", "status";
--> statement-breakpoint
-- One statement's inserted rows added (TG_ARGV[0] = 1) or deleted rows taken away (-1). A
-- transaction adds to one of eight slot rows of a start date and status, by its id, so schemes
-- started at once seldom wait on one row; the groups are written in key order, so one
-- statement's rows are always locked in the same order.
CREATE FUNCTION schemes_by_start_add() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := TG_ARGV[0]::integer;
  my_slot smallint := (pg_current_xact_id()::text::bigint % 8)::smallint;
BEGIN
  INSERT INTO schemes_by_start AS t (startdt, status, slot, schemes, amount)
  SELECT c.startdt, c.status, my_slot, sign * count(*), sign * sum(c.amount)
    FROM changed_rows c
   GROUP BY c.startdt, c.status
   ORDER BY c.startdt, c.status
  ON CONFLICT (startdt, status, slot) DO UPDATE
     SET schemes = t.schemes + excluded.schemes, amount = t.amount + excluded.amount;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update's rows before and after, netted: only the start dates and statuses a scheme left
-- or joined are written, so the many updates that move none (an installment paid sets the
-- scheme's paid count) take no lock here.
CREATE FUNCTION schemes_by_start_move() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  my_slot smallint := (pg_current_xact_id()::text::bigint % 8)::smallint;
BEGIN
  INSERT INTO schemes_by_start AS t (startdt, status, slot, schemes, amount)
  SELECT c.startdt, c.status, my_slot, sum(c.n), sum(c.n * c.amount)
    FROM (SELECT startdt, status, amount, 1 AS n FROM new_rows
          UNION ALL
          SELECT startdt, status, amount, -1 AS n FROM old_rows) c
   GROUP BY c.startdt, c.status
  HAVING sum(c.n) <> 0 OR sum(c.n * c.amount) <> 0
   ORDER BY c.startdt, c.status
  ON CONFLICT (startdt, status, slot) DO UPDATE
     SET schemes = t.schemes + excluded.schemes, amount = t.amount + excluded.amount;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER schemes_by_start_insert AFTER INSERT ON "schemes"
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION schemes_by_start_add('1');
--> statement-breakpoint
CREATE TRIGGER schemes_by_start_delete AFTER DELETE ON "schemes"
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION schemes_by_start_add('-1');
--> statement-breakpoint
CREATE TRIGGER schemes_by_start_update AFTER UPDATE ON "schemes"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION schemes_by_start_move();
