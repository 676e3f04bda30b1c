CREATE INDEX "points_lot_takes_lot_idx" ON "points_lot_takes" USING btree ("lot_id");--> statement-breakpoint
CREATE INDEX "pos_redemptions_entry_idx" ON "pos_redemptions" USING btree ("entry_mrn");--> statement-breakpoint
CREATE INDEX "pos_redemptions_cancel_entry_idx" ON "pos_redemptions" USING btree ("cancel_entry_mrn");--> statement-breakpoint
CREATE INDEX "pos_returns_entry_idx" ON "pos_returns" USING btree ("entry_mrn");--> statement-breakpoint
CREATE INDEX "pos_sales_entry_idx" ON "pos_sales" USING btree ("entry_mrn");