// Accounts page by key (an email), never by offset: every account once forwards and backwards at any size, a search
// by email or name with its count, the CLI's walk over all of them; the activity log filters by an email.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDataDir } from "./helpers/data-dir";

process.env.FOF_DATA_DIR = testDataDir("fof-users-pages-");

const { db, migrateAndSeed } = await import("../lib/db");
const users = await import("../lib/auth/users");
const { activity } = await import("../lib/auth/activity");

const emails = Array.from({ length: 11 }, (_, i) => `person${String(i).padStart(2, "0")}@example.org`);

beforeAll(async () => {
  await migrateAndSeed({ quiet: true });
  for (const [i, email] of emails.entries())
    await users.createUser(db(), { email, name: i % 3 === 0 ? `Grace ${i}` : `Alan ${i}`, password: "long-enough-password", role: "viewer" });
});
afterAll(async () => {
  await db().$disconnect();
});

describe("accounts by page", () => {
  it("walks every account once forwards and back, in email order, a page at a time", async () => {
    const seen: string[] = [];
    let page = await users.userPage(db(), { pageSize: 4 });
    expect(page.total).toBe(11);
    expect(page.prev).toBeNull();
    const pages = [page];
    for (;;) {
      seen.push(...page.rows.map((u) => u.email));
      if (!page.next) break;
      page = await users.userPage(db(), { pageSize: 4, after: page.next });
      pages.push(page);
    }
    expect(seen).toEqual(emails);
    expect(pages.map((p) => p.rows.length)).toEqual([4, 4, 3]);
    // Back from the last page: the same pages, and no "previous" before the first.
    const back = await users.userPage(db(), { pageSize: 4, before: page.prev! });
    expect(back.rows.map((u) => u.email)).toEqual(pages[1]!.rows.map((u) => u.email));
    const first = await users.userPage(db(), { pageSize: 4, before: back.prev! });
    expect(first.rows.map((u) => u.email)).toEqual(emails.slice(0, 4));
    expect(first.prev).toBeNull();
    expect(first.next).toBe(emails[3]);
  });

  it("finds accounts by email or name, counting the matches", async () => {
    const graces = await users.userPage(db(), { q: "Grace", pageSize: 2 });
    expect(graces.total).toBe(4);
    expect(graces.rows.map((u) => u.name)).toEqual(["Grace 0", "Grace 3"]);
    expect((await users.userPage(db(), { q: "PERSON07" })).rows.map((u) => u.email)).toEqual(["person07@example.org"]);
    expect((await users.userPage(db(), { q: "nobody" })).total).toBe(0);
  });

  it("lists every account to the CLI, page after page", async () => {
    const all: string[] = [];
    for await (const u of users.allUsers(db())) all.push(u.email);
    expect(all).toEqual(emails);
  });

  it("filters the activity log by an account's email; an unknown email matches nothing", async () => {
    const mine = await activity(db(), { email: "Person04@example.org" });
    expect(mine.rows.length).toBeGreaterThan(0);
    expect(mine.rows.every((r) => r.who === "person04@example.org")).toBe(true);
    expect((await activity(db(), { email: "ghost@example.org" })).rows).toEqual([]);
  });
});
