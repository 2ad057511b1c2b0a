// Prints every text FAIntbench's CLIP instrument compares images with (the release's, in its order) as a JSON list,
// for scripts/clip-export.py to embed with the real text tower: `npx tsx scripts/clip-texts.ts > clip-texts-list.json`.
import { CLIP_TEXTS, relationTexts } from "../lib/suites/faintbench/clip-rules";

const texts = [...Object.values(CLIP_TEXTS).flat(), ...(["left", "right"] as const).flatMap((s) => Object.values(relationTexts(s)).flat())];
process.stdout.write(JSON.stringify([...new Set(texts)], null, 2) + "\n");
