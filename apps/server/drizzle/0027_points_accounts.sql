-- The points balance leaves the customers row for an account of its own, owned by the points
-- module: the ledger locks and changes it, and the customers row no longer changes (nor locks)
-- with every sale, return, redemption and expiry. Room on each page for a changed balance's
-- new version (a HOT update: no index holds the balance).
CREATE TABLE "points_accounts" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "points_accounts_balance_check" CHECK ("points_accounts"."balance" >= 0)
) WITH (fillfactor = 90);
--> statement-breakpoint
-- Every customer's account, with their balance as it stands, in one statement.
INSERT INTO "points_accounts" ("customer_id", "balance")
SELECT "id", "points_balance" FROM "customers" ORDER BY "id";
--> statement-breakpoint
ALTER TABLE "points_accounts" ADD CONSTRAINT "points_accounts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- A customer's account is opened in the statement that enrols them, whoever enrols them (staff,
-- a counter's sale, a load of many rows): the ledger then always finds the row to lock, and
-- locking it never has to write it first. Once per statement, for all the rows it added.
CREATE FUNCTION points_accounts_open() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO points_accounts (customer_id) SELECT id FROM enrolled;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER customers_points_account AFTER INSERT ON "customers"
  REFERENCING NEW TABLE AS enrolled FOR EACH STATEMENT EXECUTE FUNCTION points_accounts_open();
--> statement-breakpoint
ALTER TABLE "customers" DROP CONSTRAINT "customers_points_balance_check";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "points_balance";
