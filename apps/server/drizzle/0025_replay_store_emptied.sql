-- Written by hand (data only). The replay store kept whole answers, and some held a new API
-- key, a temporary password or a customer's profile in the clear. Answers are now kept by
-- each route's rule (nothing of a secret, only ids of personal data), and an answer kept the
-- old way could not be replayed under the new rule. The finished records are emptied and
-- dated back past the "interrupted" mark, so a retry of one of them within its day is told
-- to check (409) rather than done again, and nothing of those answers stays.
UPDATE "idempotency_keys"
SET "status_code" = NULL,
    "response_body" = NULL,
    "created_at" = LEAST("created_at", now() - interval '10 minutes')
WHERE "response_body" IS NOT NULL;
