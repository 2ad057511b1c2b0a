// `npm run db:deploy`: migrate + seed the database DATABASE_URL names (default: SQLite in FOF_DATA_DIR).
import { migrateAndSeed } from "../lib/db/migrate";

migrateAndSeed().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
