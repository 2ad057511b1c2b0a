// Globals Node has and a Web Worker lacks, for the browser verifier's bundle (injected by scripts/build-verifier.mjs).
// - SharedArrayBuffer: a page that is not cross-origin isolated has none, and Prisma's runtime only asks whether a
//   value is one — with this stand-in, never.
// - setImmediate: the bootstrap yields between steps so progress can be reported; a message channel runs the
//   callback as soon as the queue is free (setTimeout(0) would be clamped to 4 ms per yield).
class SharedArrayBufferUnavailable {}
export const SharedArrayBuffer: typeof globalThis.SharedArrayBuffer =
  (globalThis as { SharedArrayBuffer?: typeof globalThis.SharedArrayBuffer }).SharedArrayBuffer ??
  (SharedArrayBufferUnavailable as unknown as typeof globalThis.SharedArrayBuffer);

const queue: Array<() => void> = [];
let channel: MessageChannel | null = null;
function viaChannel(fn: (...a: unknown[]) => void, ...args: unknown[]) {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => queue.shift()?.();
  }
  queue.push(() => fn(...args));
  channel.port2.postMessage(0);
  return queue.length;
}
// Node's own where there is one (a test running this bundle under Node)
export const setImmediate = (globalThis as unknown as { setImmediate?: typeof viaChannel }).setImmediate ?? viaChannel;
