CREATE TABLE "prediction_accuracy" (
	"feed" text PRIMARY KEY NOT NULL,
	"service_date" text NOT NULL,
	"accuracy" jsonb NOT NULL
);
