// A ResNet-34 with FairFace's interface (input [N,3,224,224] → output [N,18]) and seeded random weights, for
// measuring speed only: same layers, shapes and FLOPs (≈ 3.6 G multiply-adds per face) as the real classifier.
import { writeFileSync } from "node:fs";
import { onnx } from "onnx-proto";
import { createRng } from "../../lib/benchmark/rng";

export function buildResNet34(seed = 1): Uint8Array {
  const rng = createRng(seed, "resnet34");
  const random = () => rng.int(0, 0xffffff) / 0xffffff;
  const initializers: onnx.ITensorProto[] = [];
  const nodes: onnx.INodeProto[] = [];
  let n = 0;
  const tensor = (name: string, dims: number[], scale: number) => {
    const size = dims.reduce((a, b) => a * b, 1);
    const data = new Float32Array(size);
    for (let i = 0; i < size; i++) data[i] = (random() * 2 - 1) * scale;
    initializers.push({ name, dims, dataType: onnx.TensorProto.DataType.FLOAT, rawData: new Uint8Array(data.buffer) });
    return name;
  };
  const int = (name: string, i: number) => ({ name, type: onnx.AttributeProto.AttributeType.INT, i });
  const ints = (name: string, v: number[]) => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: v });
  // Batch norm is folded into the convolution's weights and bias, as an exported inference model has it.
  const conv = (x: string, cin: number, cout: number, k: number, stride: number) => {
    const id = `c${n++}`;
    const w = tensor(`${id}.w`, [cout, cin, k, k], Math.sqrt(2 / (cin * k * k)));
    const b = tensor(`${id}.b`, [cout], 0.01);
    nodes.push({
      opType: "Conv",
      input: [x, w, b],
      output: [id],
      attribute: [ints("kernel_shape", [k, k]), ints("strides", [stride, stride]), ints("pads", Array(4).fill((k - 1) / 2))],
    });
    return id;
  };
  const op = (opType: string, input: string[], attribute: onnx.IAttributeProto[] = []) => {
    const id = `${opType.toLowerCase()}${n++}`;
    nodes.push({ opType, input, output: [id], attribute });
    return id;
  };
  let x = op("Relu", [conv("input", 3, 64, 7, 2)]);
  x = op("MaxPool", [x], [ints("kernel_shape", [3, 3]), ints("strides", [2, 2]), ints("pads", [1, 1, 1, 1])]);
  let cin = 64;
  for (const [blocks, cout] of [
    [3, 64],
    [4, 128],
    [6, 256],
    [3, 512],
  ]) {
    for (let b = 0; b < blocks; b++) {
      const stride = b === 0 && cout !== 64 ? 2 : 1;
      const y = conv(op("Relu", [conv(x, cin, cout, 3, stride)]), cout, cout, 3, 1);
      const shortcut = stride === 1 && cin === cout ? x : conv(x, cin, cout, 1, stride);
      x = op("Relu", [op("Add", [y, shortcut])]);
      cin = cout;
    }
  }
  x = op("Flatten", [op("GlobalAveragePool", [x])], [int("axis", 1)]);
  const w = tensor("fc.w", [18, 512], Math.sqrt(1 / 512));
  const b = tensor("fc.b", [18], 0.01);
  nodes.push({ opType: "Gemm", input: [x, w, b], output: ["output"], attribute: [int("transB", 1)] });
  const dim = (d: number | string) => (typeof d === "number" ? { dimValue: d } : { dimParam: d });
  const valueInfo = (name: string, dims: Array<number | string>) => ({
    name,
    type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: dims.map(dim) } } },
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: "fof-bench",
    opsetImport: [{ domain: "", version: 17 }],
    graph: {
      name: "resnet34-fairface-random",
      node: nodes,
      initializer: initializers,
      input: [valueInfo("input", ["batch", 3, 224, 224])],
      output: [valueInfo("output", ["batch", 18])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

if (process.argv[1]?.endsWith("resnet34.ts") && process.argv[2]) writeFileSync(process.argv[2], buildResNet34());
