// The last run's record, as an archive ready to download, kept in the extension's IndexedDB: the
// service worker writes it when a run ends, the side panel (same origin) reads it when the user
// exports. Kept there rather than in the worker's memory because Chrome stops an idle worker
// after half a minute, and a user looks at the steps before exporting. One run is kept: the next
// run replaces it.
const DB = 'pagelens-trace';
const STORE = 'runs';
const KEY = 'last';

export interface LastRun {
  /** The download's name: pagelens-run-<time>.zip. */
  name: string;
  bytes: Uint8Array;
  steps: number;
  status: string;
  startedAt: string;
}

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => { req.result.createObjectStore(STORE); };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('the extension\'s IndexedDB could not be opened'));
  });
}

async function withStore<T>(mode: IDBTransactionMode, use: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = use(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result as T);
      tx.onerror = () => reject(tx.error ?? new Error('the last run could not be kept'));
      tx.onabort = () => reject(tx.error ?? new Error('the last run could not be kept'));
    });
  } finally {
    db.close();
  }
}

export const saveLastRun = (run: LastRun): Promise<void> => withStore<unknown>('readwrite', (s) => s.put(run, KEY)).then(() => undefined);

export const loadLastRun = (): Promise<LastRun | undefined> => withStore<LastRun | undefined>('readonly', (s) => s.get(KEY));

/** pagelens-run-2025-05-01T12-30-05Z.zip: sorts by time, and no character a file system refuses. */
export const lastRunName = (startedAt: string) => `pagelens-run-${startedAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}.zip`;
