-- Written by hand. Every server keeps the sessions it has checked in memory and forgets one when
-- PostgreSQL tells it the session may have ended, on the channel kanak_sessions. The triggers
-- say so in the ending change's own transaction, whoever makes it (the app, `npm run users`,
-- an operator's SQL), and PostgreSQL delivers it to every listening server when it commits.
-- 'staff:<id>': the account's sessions (disabled, password set, role or branch changed, or
-- a field the session carries changed); 'session:<jti>': one token, ended by Logout; 'all':
-- the table was emptied.
CREATE FUNCTION session_notice_staff() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kanak_sessions', 'staff:' || OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION session_notice_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kanak_sessions', 'session:' || NEW.jti);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION session_notice_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kanak_sessions', 'all');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_notice_update AFTER UPDATE ON "users" FOR EACH ROW
  WHEN ((OLD.id, OLD.username, OLD.role, OLD.branch_id, OLD.token_version, OLD.disabled_at,
         OLD.must_change_password, OLD.last_change_at)
        IS DISTINCT FROM
        (NEW.id, NEW.username, NEW.role, NEW.branch_id, NEW.token_version, NEW.disabled_at,
         NEW.must_change_password, NEW.last_change_at))
  EXECUTE FUNCTION session_notice_staff();
--> statement-breakpoint
CREATE TRIGGER session_notice_delete AFTER DELETE ON "users" FOR EACH ROW
  EXECUTE FUNCTION session_notice_staff();
--> statement-breakpoint
CREATE TRIGGER session_notice_truncate AFTER TRUNCATE ON "users" FOR EACH STATEMENT
  EXECUTE FUNCTION session_notice_all();
--> statement-breakpoint
CREATE TRIGGER session_notice_logout AFTER INSERT ON "ended_sessions" FOR EACH ROW
  EXECUTE FUNCTION session_notice_ended();
