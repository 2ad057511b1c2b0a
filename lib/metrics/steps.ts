// CPU-bound work written once as a generator that yields between slices: run to the end at once (tests, the CLI,
// simulations), or with the event loop served between slices (a server computing intervals keeps answering).

/** About how much work a slice holds before the generator yields (checked between resamples). */
export const SLICE_MS = 15;

export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

export async function runStepsAsync<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
