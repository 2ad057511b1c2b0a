"use client";
// The Label page's two static parts: how to install FairFace when it is missing, and the last image labelled.
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import type { LastImage } from "./use-labelling-loop";
import { Field } from "@/components/ui/field";

export function ModelMissing({ chooseFile }: { chooseFile: (file: File | undefined) => void }) {
  return (
    <Card title="FairFace model not installed" className="border-amber-300">
      <div className="space-y-3 text-sm" data-testid="model-missing">
        <p>
          Faces are labelled only by the real classifier (or by a person on the Review page): without it, nothing is labelled and images stay “unlabelled”.
          Install it one of these ways:
        </p>
        <ol className="list-decimal space-y-1 pl-5">
          <li>
            On the server: set <code>FAIRFACE_MODEL_URL</code> and <code>FAIRFACE_MODEL_SHA256</code> and run <code>npm run setup:models</code> (downloads and
            checks the file into <code>public/models/fairface.onnx</code>).
          </li>
          <li>
            On the server: copy a FairFace ONNX export to <code>public/models/fairface.onnx</code>, <code>&lt;FOF_DATA_DIR&gt;/models/fairface.onnx</code>, or
            point <code>FAIRFACE_MODEL_PATH</code> at it.
          </li>
          <li>
            In this browser: choose the <code>.onnx</code> file. It is checked (input [N,3,224,224]; one output [N,18] or race/gender/age heads) and kept in
            this browser’s storage.
          </li>
        </ol>
        <Field label="FairFace model file (.onnx)">
          <Input id="fairface-file" type="file" accept=".onnx" onChange={(e) => chooseFile(e.target.files?.[0])} className="mt-1 block text-sm" />
        </Field>
      </div>
    </Card>
  );
}

export function LastImageFigure({ last }: { last: LastImage }) {
  return (
    <figure className="mt-4">
      <div className="relative inline-block max-w-xs">
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={last.url} alt="The last one labelled, with its face boxes" className="block h-auto w-full rounded" />
        {last.faces.map((f, i) => (
          <div
            key={i}
            className="absolute border-2 border-emerald-400"
            style={{
              left: `${(f.x1 / last.width) * 100}%`,
              top: `${(f.y1 / last.height) * 100}%`,
              width: `${((f.x2 - f.x1) / last.width) * 100}%`,
              height: `${((f.y2 - f.y1) / last.height) * 100}%`,
            }}
          >
            <span className="absolute -top-5 left-0 whitespace-nowrap rounded bg-emerald-600 px-1 text-[10px] text-white">{f.labels.join(", ")}</span>
          </div>
        ))}
      </div>
      <figcaption className="text-xs text-slate-500">
        Last image: {last.faces.length} face(s) (shown in {last.mapping})
      </figcaption>
    </figure>
  );
}
