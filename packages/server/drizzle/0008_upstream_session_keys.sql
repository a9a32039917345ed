ALTER TABLE "sessions" ADD COLUMN "upstream_subject_key" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "upstream_session_key" text;--> statement-breakpoint
CREATE INDEX "sessions_upstream_subject" ON "sessions" USING btree ("upstream_subject_key");--> statement-breakpoint
CREATE INDEX "sessions_upstream_session" ON "sessions" USING btree ("upstream_session_key");