// SQLite transactions that wait for the write lock at their start. Prisma's better-sqlite3 adapter opens every
// interactive transaction with a plain (deferred) BEGIN: it takes the write lock only at its first write. When another
// process holds the lock by then (`npm start`'s worker process, a `fof worker`, a labeller), waiting cannot help — the
// transaction has read a snapshot the other writer may be changing — so SQLite fails it at once (SQLITE_BUSY after the
// 25 ms synchronous wait) and the request answered 503: a label saved in the browser while the worker wrote was rolled
// back. Here each transaction starts with BEGIN IMMEDIATE instead, and a lock held elsewhere is waited for
// asynchronously (the event loop keeps serving), for up to the patience, before anything is read. What still fails
// after the patience fails as before (503 + Retry-After to an HTTP caller). Every interactive transaction of the
// workbench writes, so taking the lock at the start costs nothing it would not have taken anyway.
import { withContentionRetry } from "./retry";

type AdapterFactory = { connect(): Promise<unknown> };
interface Transaction {
  executeRaw(query: { sql: string; args: unknown[]; argTypes: unknown[] }): Promise<number>;
  rollback(): Promise<void>;
}
interface Connection {
  startTransaction(isolationLevel?: string): Promise<Transaction>;
}

const sql = (text: string) => ({ sql: text, args: [], argTypes: [] });

export function immediateTransactions<T extends AdapterFactory>(factory: T, patienceMs: number): T {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const conn = (await connect()) as Connection;
    const start = conn.startTransaction.bind(conn);
    conn.startTransaction = async (isolationLevel?: string) => {
      // The adapter's BEGIN, holding its connection for this transaction; nothing has been read yet, so it is swapped
      // for an immediate one.
      const tx = await start(isolationLevel);
      try {
        await tx.executeRaw(sql("ROLLBACK"));
        await withContentionRetry(() => tx.executeRaw(sql("BEGIN IMMEDIATE")), { maxMs: patienceMs, baseMs: 5, capMs: 200 });
        return tx;
      } catch (e) {
        // No transaction is open: hand the connection back (the adapter's rollback only releases it).
        await tx.rollback();
        throw e;
      }
    };
    return conn;
  };
  return factory;
}
