// A CLIP-family vision tower small enough to build here, with seeded random weights (NOT CLIP): patch embedding
// (a 32 × 32 stride-32 convolution, as ViT-L/14's 14 × 14), tokens averaged, layer norm, projection — input
// "pixel_values" [N,3,224,224], output "image_embeds" [N,dim], the interface the operator's CLIP export script writes.
import { onnx } from "onnx-proto";
import { createRng } from "../../lib/benchmark/rng";

export function buildClipStandIn({ seed = 1, width = 16, dim = 8, inputShape = [3, 224, 224] } = {}): Uint8Array {
  const rng = createRng(seed, "clip-standin");
  const random = () => rng.int(0, 0xffffff) / 0xffffff;
  const init: onnx.ITensorProto[] = [];
  const tensor = (name: string, dims: number[], f: (i: number) => number) => {
    const data = Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, i) => f(i));
    init.push({ name, dims, dataType: onnx.TensorProto.DataType.FLOAT, rawData: new Uint8Array(data.buffer) });
    return name;
  };
  const ints = (name: string, v: number[]) => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: v });
  const int = (name: string, i: number) => ({ name, type: onnx.AttributeProto.AttributeType.INT, i });
  const shape = (name: string, v: number[]) => {
    init.push({ name, dims: [v.length], dataType: onnx.TensorProto.DataType.INT64, int64Data: v });
    return name;
  };
  const patch = 32;
  const tokens = (224 / patch) ** 2;
  const node: onnx.INodeProto[] = [
    {
      opType: "Conv",
      input: ["pixel_values", tensor("patch.w", [width, 3, patch, patch], () => (random() * 2 - 1) * 0.05), tensor("patch.b", [width], () => 0)],
      output: ["patches"],
      attribute: [ints("kernel_shape", [patch, patch]), ints("strides", [patch, patch])],
    },
    { opType: "Reshape", input: ["patches", shape("tokens.shape", [0, width, tokens])], output: ["tokens"] },
    { opType: "ReduceMean", input: ["tokens"], output: ["pooled"], attribute: [ints("axes", [2]), int("keepdims", 0)] },
    {
      opType: "LayerNormalization",
      input: ["pooled", tensor("ln.g", [width], () => 1), tensor("ln.b", [width], () => 0)],
      output: ["normed"],
      attribute: [int("axis", -1)],
    },
    { opType: "MatMul", input: ["normed", tensor("proj", [width, dim], () => (random() * 2 - 1) / Math.sqrt(width))], output: ["image_embeds"] },
  ];
  const valueInfo = (name: string, dims: Array<number | string>) => ({
    name,
    type: {
      tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: dims.map((d) => (typeof d === "number" ? { dimValue: d } : { dimParam: d })) } },
    },
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: "fof-tests",
    opsetImport: [{ domain: "", version: 17 }],
    graph: {
      name: "clip-vision-standin",
      node,
      initializer: init,
      input: [valueInfo("pixel_values", ["batch", ...inputShape])],
      output: [valueInfo("image_embeds", ["batch", dim])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}
