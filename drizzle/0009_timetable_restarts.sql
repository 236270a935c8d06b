CREATE TABLE "timetable_restarts" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"route_no" text NOT NULL,
	"since" text NOT NULL,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
