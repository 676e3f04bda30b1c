-- Written by hand (drizzle cannot declare a table's storage parameters).
-- A customer's row changes with every sale, return, redemption and expiry (points_balance),
-- and no index holds the balance: with room left on its page the new version goes beside the
-- old one (a HOT update) and none of the five customers indexes (the trigram GIN among them)
-- takes an entry. On full pages every such change wrote five index entries. A row on a page
-- filled before this moves once, at its next change, to a page with room.
ALTER TABLE "customers" SET (fillfactor = 90);
