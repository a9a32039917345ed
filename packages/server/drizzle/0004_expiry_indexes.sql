CREATE INDEX "authorization_codes_expires" ON "authorization_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "refresh_tokens_session" ON "refresh_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_expires" ON "refresh_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "revoked_access_tokens_expires" ON "revoked_access_tokens" USING btree ("expires_at");