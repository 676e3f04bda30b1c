-- Written by hand after `drizzle-kit generate` (drizzle cannot declare INCLUDE columns or
-- statistics targets). Why each one: docs/performance.md.

-- Scheme summary: one month of schemes read off the index in (startdt, id) order, with what
-- the summary needs, so neither a heap visit nor a sort is needed.
DROP INDEX "schemes_startdt_idx";--> statement-breakpoint
CREATE INDEX "schemes_summary_idx" ON "schemes" ("startdt", "id") INCLUDE ("customer_id", "amount", "status");--> statement-breakpoint

-- The summary's name and mobile per scheme, from the index alone (an index-only nested loop).
CREATE INDEX "customers_names_idx" ON "customers" ("id") INCLUDE ("custname", "mobileno");--> statement-breakpoint

-- Names are very unequal in frequency (Kumar, Singh, Shah...). A finer histogram lets the
-- planner tell a common syllable (scan a few pages until 20 match) from a rare one (trigram index).
ALTER TABLE "customers" ALTER COLUMN "custname" SET STATISTICS 1000;
