-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "linkedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "ssoAccountId" TEXT;

-- CreateIndex
CREATE INDEX "Session_ssoAccountId_idx" ON "Session"("ssoAccountId");

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_ssoAccountId_fkey" FOREIGN KEY ("ssoAccountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Identities joined to an existing account before joins were stamped: every single sign-on identity whose account
-- single sign-on did not create (no user.sso-create row names it) was a join by address.
UPDATE "Account" SET "linkedAt" = "createdAt"
WHERE "providerId" = 'oidc'
  AND "userId" NOT IN (SELECT "targetId" FROM "AuditLog" WHERE "action" = 'user.sso-create' AND "targetId" IS NOT NULL);
