// A crawl of what a role is offered: from a few entry pages, every same-origin link on every page reached (breadth
// first), each followed as the browser would — pages visited, downloads and API links fetched — collecting any answer
// that tells the viewer "not for your role" (403) or "sign in" (401). Addresses that differ only in an id or a query
// are visited a few times each, not all, so a large database does not make the crawl endless.
import type { Page } from "@playwright/test";

/** "/runs/cmxyz…/answers?model=…" → "/runs/:id/answers": addresses of one kind of page. */
const templateOf = (pathname: string) =>
  pathname
    .split("/")
    .map((s) => (/^[a-z0-9]{20,}$|^img[0-9a-f]{32}$|^\d+$/i.test(s) ? ":id" : s))
    .join("/");

export interface CrawlResult {
  visited: string[];
  refused: string[];
}

export async function crawlAs(page: Page, starts: string[], opts: { maxPages?: number; perTemplate?: number } = {}): Promise<CrawlResult> {
  const maxPages = opts.maxPages ?? 80;
  const perTemplate = opts.perTemplate ?? 3;
  const origin = new URL(page.url() === "about:blank" ? "http://x" : page.url()).origin;
  const seen = new Set<string>();
  const templates = new Map<string, number>();
  const queue = [...starts];
  const refused: string[] = [];
  const visited: string[] = [];
  const refusedStatus = (s: number) => s === 401 || s === 403;
  while (queue.length && visited.length < maxPages) {
    const href = queue.shift()!;
    if (seen.has(href)) continue;
    seen.add(href);
    const url = new URL(href, page.url().startsWith("http") ? page.url() : origin);
    const t = templateOf(url.pathname);
    if ((templates.get(t) ?? 0) >= perTemplate) continue;
    templates.set(t, (templates.get(t) ?? 0) + 1);
    // Downloads and API links: fetched with the page's session, not opened.
    if (url.pathname.startsWith("/api/")) {
      const res = await page.request.get(url.pathname + url.search);
      if (refusedStatus(res.status())) refused.push(`${res.status()} ${url.pathname}${url.search}`);
      continue;
    }
    const res = await page.goto(url.pathname + url.search);
    visited.push(url.pathname + url.search);
    if (res && refusedStatus(res.status())) {
      refused.push(`${res.status()} ${url.pathname}${url.search}`);
      continue;
    }
    // The page as the viewer sees it: a redirect to the sign-in page is a refusal too.
    if (new URL(page.url()).pathname === "/sign-in") {
      refused.push(`sign-in ${url.pathname}${url.search}`);
      continue;
    }
    const links = await page.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    for (const l of links) {
      if (!l || l.startsWith("#") || /^(mailto|javascript):/i.test(l)) continue;
      const u = new URL(l, page.url());
      if (u.origin !== new URL(page.url()).origin) continue;
      if (u.pathname === "/sign-in" || u.pathname.startsWith("/api/auth")) continue;
      const key = u.pathname + u.search;
      if (!seen.has(key)) queue.push(key);
    }
  }
  return { visited, refused };
}
