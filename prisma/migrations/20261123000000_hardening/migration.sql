-- Model settings snapshot per run × model; worker heartbeats.
ALTER TABLE "RunModel" ADD COLUMN "settingsJson" TEXT NOT NULL DEFAULT '{}';

CREATE TABLE "WorkerStatus" (
    "owner" TEXT NOT NULL PRIMARY KEY,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "inFlight" INTEGER NOT NULL DEFAULT 0,
    "runsJson" TEXT NOT NULL DEFAULT '[]',
    "lastError" TEXT,
    "lastErrorAt" DATETIME,
    "stoppedAt" DATETIME
);
CREATE INDEX "WorkerStatus_heartbeatAt_idx" ON "WorkerStatus"("heartbeatAt");
