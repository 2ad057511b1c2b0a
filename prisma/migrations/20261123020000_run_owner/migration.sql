-- Who launched a run: runners' spending limits cover the budgets of their runs.
ALTER TABLE "Run" ADD COLUMN "createdById" TEXT;

CREATE INDEX "Run_createdById_idx" ON "Run"("createdById");
