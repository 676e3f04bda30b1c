-- Written by hand (data only). A counter's postings were filed under no branch, only naming
-- the key's branch code in their detail, so that branch's manager did not see them on the
-- Audit Trail (a manager's trail lists the rows filed under their branch). They are filed
-- under the branch they name, as a counter's postings now are when made.
UPDATE "audit_log" AS a
SET "branch_id" = b."id"
FROM "branches" AS b
WHERE a."branch_id" IS NULL
  AND a."user_id" IS NULL
  AND a."action" LIKE 'pos.%'
  AND b."code" = a."detail"->>'branch';
