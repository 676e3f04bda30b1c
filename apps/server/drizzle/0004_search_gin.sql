DROP INDEX "customers_custname_trgm_idx";--> statement-breakpoint
CREATE INDEX "customers_custname_trgm_idx" ON "customers" USING gin ("custname" gin_trgm_ops);