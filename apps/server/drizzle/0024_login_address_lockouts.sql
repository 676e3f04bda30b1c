CREATE TABLE "login_address_lockouts" (
	"username" text NOT NULL,
	"address" text NOT NULL,
	"failures" smallint NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	CONSTRAINT "login_address_lockouts_username_address_pk" PRIMARY KEY("username","address")
);
