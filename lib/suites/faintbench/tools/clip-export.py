#!/usr/bin/env python3
"""Export FAIntbench's instrument, CLIP ViT-L/14, for the workbench (run where the weights can be downloaded).

Writes two files:
  clip-vit-l14-vision.onnx  the vision tower: input "pixel_values" float32 [N,3,224,224] (CLIP's preprocessing:
                            bicubic resize of the short side to 224, centre crop, mean/std normalisation), output
                            "image_embeds" [N,768] (the projected embedding, as model.encode_image gives it);
  clip-texts.json           every text the release compares images with, embedded once by the text tower
                            (L2-normalised), with the model's logit scale, the sha256 of the weights and of the
                            exported tower — the workbench checks it (lib/faces/clip-texts.ts and
                            lib/suites/faintbench/clip-instrument.ts) and refuses a tower it was not written with.

Usage:
  npx tsx lib/suites/faintbench/tools/clip-texts.ts > clip-texts-list.json
  pip install torch git+https://github.com/openai/CLIP.git onnx
  python3 lib/suites/faintbench/tools/clip-export.py --texts clip-texts-list.json --out "$FOF_DATA_DIR/models"
"""
import argparse
import hashlib
import json
import os

import clip
import torch


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class Vision(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, pixel_values):
        return self.model.encode_image(pixel_values)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--texts", required=True, help="the JSON list printed by clip-texts.ts (beside this script)")
    ap.add_argument("--out", required=True, help="the folder to write both files to")
    ap.add_argument("--model", default="ViT-L/14", help="the release uses ViT-L/14")
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    cache = os.path.expanduser("~/.cache/clip")
    model, _ = clip.load(args.model, device="cpu", jit=False, download_root=cache)
    model = model.float().eval()
    weights = os.path.join(cache, os.path.basename(clip.clip._MODELS[args.model]))

    onnx_path = os.path.join(args.out, "clip-vit-l14-vision.onnx")
    torch.onnx.export(
        Vision(model),
        torch.randn(1, 3, 224, 224),
        onnx_path,
        input_names=["pixel_values"],
        output_names=["image_embeds"],
        dynamic_axes={"pixel_values": {0: "batch"}, "image_embeds": {0: "batch"}},
        opset_version=17,
    )

    texts = json.load(open(args.texts))
    with torch.no_grad():
        emb = model.encode_text(clip.tokenize(texts)).float()
        emb = emb / emb.norm(dim=-1, keepdim=True)
    out = {
        "model": f"CLIP {args.model} (openai/CLIP)",
        "weightsSha256": sha256(weights),
        # the tower exported beside these texts: the workbench refuses a texts file paired with another tower
        "visionSha256": sha256(onnx_path),
        "logitScale": float(model.logit_scale.exp().item()),
        "dim": int(emb.shape[1]),
        "texts": {t: [round(float(x), 7) for x in e] for t, e in zip(texts, emb)},
    }
    with open(os.path.join(args.out, "clip-texts.json"), "w") as f:
        json.dump(out, f)
    print(f"wrote {onnx_path} (sha256 {sha256(onnx_path)}) and clip-texts.json ({len(texts)} texts, dim {out['dim']}, scale {out['logitScale']:.2f})")


if __name__ == "__main__":
    main()
