-- Trigram indexes let `co`, `sw` and `ew` filters on the user list use an index instead of reading every row.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_user_name_trgm" ON "users" USING gin (lower("user_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_trgm" ON "users" USING gin (lower("email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_display_name_trgm" ON "users" USING gin (lower("display_name") gin_trgm_ops);
