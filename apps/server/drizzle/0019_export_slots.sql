CREATE TABLE "export_slots" (
	"kind" text NOT NULL,
	"slot" integer NOT NULL,
	CONSTRAINT "export_slots_kind_slot_pk" PRIMARY KEY("kind","slot")
);
