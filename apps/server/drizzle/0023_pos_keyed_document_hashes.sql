-- Written by hand (data only). A POS document's request_hash told a repeat from a clash with
-- an unkeyed SHA-256 of its body, which holds the customer's mobile number: trying every
-- number gave the number back, even after the customer's erasure. New documents are hashed
-- with an HMAC under DATA_KEY, which this migration does not have, and the bodies behind the
-- old hashes are not kept: the old hashes are emptied. A document posted before this and
-- sent again answers 409 (its contents can no longer be compared) instead of its first answer.
UPDATE "pos_sales" SET "request_hash" = '' WHERE "request_hash" <> '';
--> statement-breakpoint
UPDATE "pos_returns" SET "request_hash" = '' WHERE "request_hash" <> '';
--> statement-breakpoint
UPDATE "pos_redemptions" SET "request_hash" = '' WHERE "request_hash" <> '';
