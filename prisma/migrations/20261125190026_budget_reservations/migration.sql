-- A column with a constant default: SQLite adds it in place (no copy of a table that may hold millions of rows).
ALTER TABLE "Query" ADD COLUMN "reservedUsd" REAL NOT NULL DEFAULT 0;
