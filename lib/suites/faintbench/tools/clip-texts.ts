// Prints every text FAIntbench's CLIP instrument compares images with (the release's, in its order) as a JSON list,
// for clip-export.py (beside it) to embed with the real text tower: `npx tsx <this file> > clip-texts-list.json`.
import { CLIP_TEXTS, relationTexts } from "../clip-rules";

const texts = [...Object.values(CLIP_TEXTS).flat(), ...(["left", "right"] as const).flatMap((s) => Object.values(relationTexts(s)).flat())];
process.stdout.write(JSON.stringify([...new Set(texts)], null, 2) + "\n");
