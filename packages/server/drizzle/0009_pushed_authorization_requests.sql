CREATE TABLE "pushed_authorization_requests" (
	"request_uri_hash" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"params" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "pushed_authorization_requests_expires" ON "pushed_authorization_requests" USING btree ("expires_at");