CREATE TABLE "saml_relay_states" (
	"id" text PRIMARY KEY NOT NULL,
	"sealed" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "saml_relay_states_expires" ON "saml_relay_states" USING btree ("expires_at");