CREATE INDEX "member_codes_customer_idx" ON "member_codes" USING btree ("customer_id");--> statement-breakpoint
-- Written by hand from here. A member session was opened by a code sent to the customer's mobile
-- number, and is that number's: a change of the number (the staff's edit, an erasure, an
-- operator's SQL) ends the customer's open sessions and live codes in the change's own
-- transaction. Every server checks the session's row on every member request, so the old
-- number's holder is refused everywhere from the next request on; an edit that keeps the number
-- ends nothing.
CREATE FUNCTION member_sessions_end_on_new_mobile() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE member_sessions SET ended_at = now() WHERE customer_id = NEW.id AND ended_at IS NULL;
  UPDATE member_codes SET used_at = now() WHERE customer_id = NEW.id AND used_at IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER member_sessions_end_on_new_mobile AFTER UPDATE OF mobileno ON "customers"
  FOR EACH ROW WHEN (OLD.mobileno IS DISTINCT FROM NEW.mobileno)
  EXECUTE FUNCTION member_sessions_end_on_new_mobile();
