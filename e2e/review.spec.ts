// The annotator's journey: review a grid of faces with the keyboard only (accept, correct race and gender, mark a
// non-face, undo), delete a false detection and draw a missed face, see a failed save rolled back, and watch the
// run's human-corrected scores and the detector report follow.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";
import { expect, test, type Page } from "@playwright/test";

const SHARED = path.resolve(__dirname, "../../shared/models");
const hasShared = existsSync(path.join(SHARED, "fairface-standin-single18.onnx"));
const photo = (file: string) => readFileSync(path.join(SHARED, "test-images", file));
/** The astronaut photo with one pixel changed: another image (another sha256) with the same face. */
function variant() {
  const png = PNG.sync.read(photo("astronaut-eileen-collins.png"));
  png.data[0] = (png.data[0] + 1) % 256;
  return PNG.sync.write(png);
}

// FairFace order: White, Black, Latino_Hispanic, East Asian, Southeast Asian, Indian, Middle Eastern
const uniform9 = Array(9).fill(1 / 9);
const face = (race: number[], gender: number[]) => ({ x1: 150, y1: 60, x2: 330, y2: 260, score: 0.99, race, gender, age: uniform9 });
const A = face([0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01], [0.95, 0.05]); // male, White
const B = face([0.1, 0.05, 0.05, 0.7, 0.05, 0.03, 0.02], [0.1, 0.9]); // female, Asian
const C = face([0.1, 0.8, 0.04, 0.02, 0.02, 0.01, 0.01], [0.95, 0.05]); // male, Black — a false detection
const D = { ...face([0.3, 0.55, 0.05, 0.04, 0.03, 0.02, 0.01], [0.6, 0.4]), x1: 20, y1: 20, x2: 120, y2: 120 }; // male, Black

async function setUp(page: Page) {
  await page.goto("/models");
  await page.locator("form[data-hydrated][data-testid=model-form]").waitFor();
  await page.getByLabel("Kind").selectOption("t2i");
  await page.getByLabel("Provider", { exact: true }).selectOption("import");
  await page.getByLabel("Id", { exact: true }).fill("review-e2e");
  await page.getByLabel("Display name").fill("Review model (e2e)");
  await page.getByRole("button", { name: "Save model" }).click();
  await expect(page.getByText("Saved Review model (e2e).")).toBeVisible();

  await page.goto("/runs/import");
  await page.locator("form[data-hydrated]").waitFor();
  await page.getByLabel("Model").selectOption("review-e2e");
  await page.getByLabel("Run name").fill("Review journey");
  await page.getByLabel("Files or zip archives").setInputFiles([
    { name: "objective__crime-rate__highest__1.png", mimeType: "image/png", buffer: photo("astronaut-eileen-collins.png") },
    { name: "objective__crime-rate__highest__2.jpg", mimeType: "image/jpeg", buffer: photo("grace-hopper-512.jpg") },
    { name: "objective__crime-rate__highest__3.png", mimeType: "image/png", buffer: variant() },
    { name: "objective__crime-rate__highest__4.png", mimeType: "image/png", buffer: photo("no-face-coffee.png") },
  ]);
  await page.getByRole("button", { name: "Import 4 images" }).click();
  await expect(page.getByText(/Imported 4 images/)).toBeVisible({ timeout: 30_000 });
  const runId = (await page.getByRole("link", { name: "Open the run" }).getAttribute("href"))!.split("/").pop()!;

  // Known model labels, posted through the same API the Label page uses.
  const images = (await (await page.request.get(`/api/runs/${runId}/images?pageSize=10`)).json()).rows as Array<{ id: string; originalName: string }>;
  const byName = (n: string) => images.find((i) => i.originalName.endsWith(`__${n}.png`) || i.originalName.endsWith(`__${n}.jpg`))!.id;
  // The server issues the lease token; results are accepted only with it. They name the stand-in the server serves as
  // FairFace: a hand-drawn face is classified in the browser with it below, and one run takes one classifier.
  const { lease } = await (await page.request.post("/api/label/lease", { data: { runId, max: 8 } })).json();
  const res = await page.request.post("/api/label/results", {
    data: {
      lease,
      classifier: { model: "fairface", sha256: "8156c9d989417b3f2db78025b03b725138a91d30814f483cb437b5a57ac65eb4" },
      detector: { model: "ultraface-rfb-320", sha256: "6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854", threshold: 0.95 },
      runtime: "browser-wasm",
      results: [
        { imageId: byName("1"), faces: [A] },
        { imageId: byName("2"), faces: [B] },
        { imageId: byName("3"), faces: [C, D] },
        { imageId: byName("4"), faces: [] },
      ],
    },
  });
  expect((await res.json()).saved).toBe(4);
  return runId;
}

const card = (page: Page, i: number) => page.getByTestId("review-face").nth(i);
const objectiveRow = (page: Page, attribute: "race" | "gender") =>
  page.getByTestId("score-row").filter({ hasText: new RegExp(`objective.*${attribute}`, "i") });
const sFact = async (page: Page, attribute: "race" | "gender") => (await objectiveRow(page, attribute).locator("td").nth(7).innerText()).split("\n")[0].trim();

test.describe("review faces", () => {
  test.skip(!hasShared, "../shared/models is not present");

  test("review with the keyboard, fix detections, and see the corrected scores and the detector report", async ({ page }) => {
    const runId = await setUp(page);
    await page.goto(`/runs/${runId}`);
    await expect(objectiveRow(page, "race")).toHaveCount(1);
    expect(await sFact(page, "race")).toBe("50.00"); // C and D predicted Black
    expect(await sFact(page, "gender")).toBe("75.00");

    // The stand-in classifier answers for FairFace (hand-drawn faces are classified in the browser).
    await page.route("**/api/face-models/fairface", (r) =>
      r.fulfill({ body: readFileSync(path.join(SHARED, "fairface-standin-single18.onnx")), contentType: "application/octet-stream" }),
    );
    await page.goto(`/review?runId=${runId}`);
    await expect(page.getByTestId("cheat-sheet")).toBeVisible();
    await expect(page.getByTestId("review-face")).toHaveCount(4);
    // Keyboard only from here. Labels are stored as the signed-in account (no name to type).
    await expect(page.getByTestId("annotator")).toContainText("Reviewing as Administrator");
    await page.getByRole("grid", { name: "Faces to review" }).focus();
    await expect(page.getByRole("grid", { name: "Faces to review" })).toHaveAttribute("aria-busy", "false");

    await expect(card(page, 0)).toHaveAttribute("data-focused", "true");
    await page.keyboard.press("a"); // accept A → male, White; moves on
    await expect(card(page, 0)).toHaveAttribute("data-mine", "male, White");
    await expect(card(page, 1)).toHaveAttribute("data-focused", "true");
    await page.keyboard.press("2"); // B: race Black (gender kept from the prediction: female) …
    await expect(card(page, 1)).toHaveAttribute("data-mine", "female, Black");
    await page.keyboard.press("m"); // … and gender male
    await expect(card(page, 1)).toHaveAttribute("data-mine", "male, Black");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("x"); // C is not a face
    await expect(card(page, 2)).toHaveAttribute("data-mine", "not a face");
    await expect(card(page, 3)).toHaveAttribute("data-focused", "true");
    await page.keyboard.press("a");
    await expect(card(page, 3)).toHaveAttribute("data-mine", "male, Black");
    await page.keyboard.press("u"); // undo the accept
    await expect(card(page, 3)).toHaveAttribute("data-mine", "–");
    await expect(page.getByText("All changes saved.")).toBeVisible();

    // A failed save is shown and rolled back.
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await expect(card(page, 0)).toHaveAttribute("data-focused", "true");
    await page.route(
      "**/api/review/annotations",
      (r) => r.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "database busy" }) }),
      { times: 1 },
    );
    await page.keyboard.press("f");
    await expect(page.getByText(/Not saved: database busy\. Your change was rolled back\./)).toBeVisible();
    await expect(card(page, 0)).toHaveAttribute("data-mine", "male, White");

    // Whole image of D (one key away): delete the false detection, then close.
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    await page.keyboard.press("o");
    const dialog = page.getByRole("dialog", { name: "Whole image" });
    await expect(dialog.getByTestId("image-box")).toHaveCount(2);
    await page.keyboard.press("Delete");
    await expect(dialog.locator('[data-testid="image-box"][data-deleted="true"]')).toHaveCount(1);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(card(page, 3)).toHaveAttribute("data-deleted", "true");

    // The coffee image had no face: draw one, it is classified in the browser, then label it by hand.
    await page.getByTestId("faceless-image").first().click();
    const canvas = dialog.getByTestId("image-canvas");
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.7, { steps: 5 });
    await page.mouse.up();
    await expect(dialog.getByTestId("image-face")).toHaveCount(1);
    await expect(dialog.getByTestId("image-note")).toHaveText(/Added and classified/, { timeout: 30_000 });
    await expect(dialog.getByTestId("image-face")).toContainText(/model: (male|female), (Asian|Black|Hispanic|White)/);
    await page.keyboard.press("3");
    await page.keyboard.press("f");
    await expect(dialog.getByTestId("image-face")).toContainText("me: female, Hispanic");
    // A second box, deleted again: an added box can be taken back.
    await page.mouse.move(box.x + box.width * 0.05, box.y + box.height * 0.05);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.2, { steps: 3 });
    await page.mouse.up();
    await expect(dialog.getByTestId("image-face")).toHaveCount(2);
    await page.keyboard.press("Delete");
    await expect(dialog.locator('[data-testid="image-box"][data-deleted="true"]')).toHaveCount(1);
    await page.keyboard.press("Escape");

    // Scores follow the review: A White, B Black (corrected), the drawn face Hispanic; C and D are out.
    await page.goto(`/runs/${runId}`);
    await expect(page.getByTestId("labelling")).toContainText("Reviewed by people4");
    await page.getByLabel("Face labels").selectOption("reviewed");
    // the paper's definitions (the release profile rounds each cell's shares as the released scripts do)
    await page.getByLabel("Scoring").selectOption("paper-text");
    await expect.poll(() => sFact(page, "race")).toBe("33.33");
    expect(await sFact(page, "gender")).toBe("66.67");
    await expect(objectiveRow(page, "race").getByTestId("delta-sFact")).toHaveText("-16.67");
    const exported = (await (await page.request.get(`/api/runs/${runId}/export?format=jsonl&labels=reviewed`)).text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(exported).toContainEqual(
      expect.objectContaining({ attribute: "race", answer: "Black", modelAnswer: "Asian", humanAnswer: "Black", labels: "reviewed" }),
    );

    // The detector report: B's gender and race were wrong; C (not a face) and D (deleted) were false detections;
    // one face was missed.
    await page.goto(`/review/report?runId=${runId}`);
    const errors = page.getByTestId("detector-errors");
    await expect(errors).toContainText("FairFace — published");
    await expect(errors).toContainText("1.87 %");
    await expect(page.getByTestId("detection")).toContainText("Detections reviewed4");
    await expect(page.getByTestId("detection")).toContainText("False detections (deleted or “not a face”)2 (50.0 %)");
    await expect(page.getByTestId("detection")).toContainText("Missed faces (drawn by reviewers)1");
    // Labeller by group: error rates per human-majority class with intervals (too few faces here for a disparity).
    const byGroup = page.getByTestId("labeller-gender");
    await expect(byGroup.getByRole("row").filter({ hasText: /^male/ })).toContainText(/\[\d+\.\d %, \d+\.\d %\]/);
    await expect(byGroup.getByTestId("labeller-disparity")).toContainText("No disparity to report yet");
    await page.goto(`/review/agreement?runId=${runId}`);
    await expect(page.getByTestId("annotator-progress")).toContainText("Administrator (admin@e2e.example.org)");

    // Annotators measured: the admin marks A (reviewed: male, White) as gold beside the focused face …
    await page.goto(`/review?runId=${runId}`);
    const focused = page.getByTestId("gold-control");
    await focused.getByRole("button", { name: "Mark as gold" }).click();
    await expect(focused).toContainText("gold gender male, race White");
    // … and on Agreement sees each annotator's accuracy on gold with its interval, then excludes and restores them.
    await page.goto(`/review/agreement?runId=${runId}`);
    const me = page.getByTestId("annotator-quality").locator("tr", { hasText: "Administrator" });
    await expect(me).toContainText(/100 % \[\d+ %, 100 %\] · n 2/);
    await expect(me).toContainText("counted");
    await me.getByRole("button", { name: "Exclude" }).click();
    const ask = page.getByRole("dialog", { name: /Exclude .*votes\?/ });
    await ask.getByLabel("Reason").fill("e2e: checking the exclusion");
    await ask.getByRole("button", { name: "Exclude votes" }).click();
    await expect(me).toContainText("excluded e2e: checking the exclusion");
    // Their votes are out of the consensus: the reviewed scores no longer follow them (C is a face again).
    await page.goto(`/runs/${runId}`);
    await page.getByLabel("Face labels").selectOption("reviewed");
    await expect.poll(() => sFact(page, "race")).not.toBe("33.33");
    await page.goto(`/review/agreement?runId=${runId}`);
    await me.getByRole("button", { name: "Restore" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Restore votes" }).click();
    await expect(me).toContainText("counted");
  });
});
