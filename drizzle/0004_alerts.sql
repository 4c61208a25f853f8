CREATE TABLE "alert_firings" (
	"key" text PRIMARY KEY NOT NULL,
	"widget_id" uuid NOT NULL,
	"fired_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_jobs" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"widget_id" uuid NOT NULL,
	"rule_key" text NOT NULL,
	"due_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_firings" ADD CONSTRAINT "alert_firings_widget_id_widgets_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."widgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_jobs_widget_idx" ON "alert_jobs" USING btree ("widget_id");