CREATE TABLE "departures" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"route_no" text NOT NULL,
	"veh_id" text NOT NULL,
	"service_date" text NOT NULL,
	"departed_at" timestamp with time zone NOT NULL,
	"gap_sec" integer NOT NULL,
	"arrived_at" timestamp with time zone,
	"backfilled" boolean DEFAULT false NOT NULL,
	CONSTRAINT "departures_run" UNIQUE("source","route_no","veh_id","departed_at")
);
--> statement-breakpoint
CREATE INDEX "departures_by_day" ON "departures" USING btree ("source","service_date","route_no");