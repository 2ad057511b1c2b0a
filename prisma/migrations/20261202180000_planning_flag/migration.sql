-- Pause while planning: whether a run's queries are still being written is a flag of its own, so a run paused (or
-- cancelled) during planning keeps its planner's heartbeat and is still swept whole when its planner died.
ALTER TABLE "Run" ADD COLUMN "planning" BOOLEAN NOT NULL DEFAULT false;
UPDATE "Run" SET "planning" = true WHERE "status" = 'planning';
