ALTER TABLE "dashboards" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "widgets" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;