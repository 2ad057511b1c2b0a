// `fof suite-data import|list`: a suite's content versions from the command line (the Benchmark page's admin form
// does the same in the browser).
import { db, migrateAndSeed } from "../../lib/db";
import { audit } from "../../lib/auth/audit";
import { suiteOf } from "../../lib/suites";
import { importSuiteData, suiteContentVersions } from "../../lib/suites/content-versions";
import { collectDataFiles } from "../../lib/suites/data-files";

export const suiteDataCommands = {
  async import(suiteId: string, paths: string[]) {
    const suite = suiteOf(suiteId);
    if (!suite.dataImport) throw new Error(`${suite.name} has no data import`);
    const files = await collectDataFiles(paths, suite.dataImport.accepts);
    await migrateAndSeed({ quiet: true });
    const r = await importSuiteData(db(), suite.id, files);
    await audit(db(), {
      userId: null,
      action: "content.import",
      targetType: "suite",
      targetId: suite.id,
      details: { version: r.version, sha256: r.sha256, created: r.created, files: files.map((f) => f.name), via: "cli" },
    });
    const items = (r.content as { entries?: unknown[] }).entries?.length;
    process.stdout.write(
      `${r.created ? "imported" : "already imported"}: ${suite.name} content ${r.version} (sha256 ${r.sha256.slice(0, 12)}…${items !== undefined ? `, ${items} entries` : ""}) from ${files.map((f) => f.name).join(", ")}\n`,
    );
    process.stdout.write(`plan a run on it: fof run --suite ${suite.id} --content ${r.version} -m <model> --preset smoke\n`);
    await db().$disconnect();
  },
  async list(suiteId: string) {
    suiteOf(suiteId);
    await migrateAndSeed({ quiet: true });
    for (const v of await suiteContentVersions(db(), suiteId))
      process.stdout.write(`${v.version}\t${v.current ? "shipped (today's)" : v.imported ? "imported" : "earlier"}\t${v.items ?? "?"} items\t${v.createdAt}\n`);
    await db().$disconnect();
  },
};
