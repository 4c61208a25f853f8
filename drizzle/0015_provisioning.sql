ALTER TABLE "dashboards" ADD COLUMN "provision_key" text;--> statement-breakpoint
ALTER TABLE "dashboards" ADD COLUMN "provision_locked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "dashboards" ADD COLUMN "provision_hash" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "provision_key" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "provision_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "dashboards_provision_key_idx" ON "dashboards" USING btree ("provision_key");--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_provision_key_idx" ON "integrations" USING btree ("provision_key");