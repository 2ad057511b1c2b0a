// node:async_hooks for the browser verifier's bundle: the re-scorer runs one computation at a time in its worker,
// so a context store is only ever the one passed to run().
export class AsyncLocalStorage<T> {
  private store: T | undefined;
  getStore() {
    return this.store;
  }
  run<R>(store: T, fn: (...a: unknown[]) => R, ...args: unknown[]): R {
    const before = this.store;
    this.store = store;
    try {
      return fn(...args);
    } finally {
      this.store = before;
    }
  }
  enterWith(store: T) {
    this.store = store;
  }
  disable() {
    this.store = undefined;
  }
}
export class AsyncResource {
  constructor(readonly type: string) {}
  runInAsyncScope<R>(fn: (...a: unknown[]) => R, thisArg?: unknown, ...args: unknown[]): R {
    return fn.apply(thisArg, args);
  }
  static bind<F>(fn: F) {
    return fn;
  }
}
const asyncHooks = { AsyncLocalStorage, AsyncResource };
export default asyncHooks;
