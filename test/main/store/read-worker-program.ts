/**
 * A program that reads the store through its read worker and never closes it, run under tsx
 * as the CLI runs (read-worker.test.ts): it must still end by itself once its reads are done.
 * Prints the main thread's id and the reader's.
 */
import { threadId } from 'node:worker_threads';
import { openReadableStore } from '../../../src/main/store/index.js';
import { StoreReads } from '../../../src/main/store/read-worker.js';

const file = process.argv[2]!;
const reads = new StoreReads({ file, fallback: openReadableStore(file).store });
const info = await reads.run('readerInfo', undefined);
process.stdout.write(JSON.stringify({ mainThread: threadId, readerThread: info.threadId }));
