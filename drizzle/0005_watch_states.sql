CREATE TABLE "alert_watch_states" (
	"widget_id" uuid NOT NULL,
	"key" text NOT NULL,
	"state" jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_watch_states_widget_id_key_pk" PRIMARY KEY("widget_id","key")
);
--> statement-breakpoint
ALTER TABLE "alert_watch_states" ADD CONSTRAINT "alert_watch_states_widget_id_widgets_id_fk" FOREIGN KEY ("widget_id") REFERENCES "public"."widgets"("id") ON DELETE cascade ON UPDATE no action;