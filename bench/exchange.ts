/**
 * `npm run bench:exchange`: throughput and tail latency of the sandbox exchange against a bare
 * Fastify hello-world, each server in its own child process, autocannon (50 connections, ~5 s)
 * in this one. Every signed request is signed afresh in autocannon's setupRequest hook.
 *
 *   endpoint | req/s | p99 ms | vs bare Fastify | server and client CPU µs per request
 *
 * The two cores are shared by the servers, autocannon and whatever else runs: req/s moves with
 * the machine's load, CPU µs per request much less. A signed request also costs the client more
 * (signing, a request rebuilt each time), which caps its req/s below what the server could do.
 *
 * Targets: signed POST /order/rfq at least half the bare rate, p99 under 20 ms.
 * Options: --duration S (default 5), --connections N (default 50).
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, createSecretKey } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const BARE = '--serve-bare';

async function serveBare(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/', () => ({ hello: 'world' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  process.stdout.write(
    `${JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${port}` })}\n`,
  );
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

interface Child {
  proc: ChildProcess;
  url: string;
}

async function startChild(args: string[]): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: proc.stdout });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  return { proc, url: (JSON.parse(line) as { url: string }).url };
}

async function stopChild(c: Child): Promise<void> {
  if (c.proc.exitCode !== null) return;
  const exited = once(c.proc, 'exit');
  c.proc.kill('SIGTERM');
  await exited;
}

async function control<T>(base: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: {
      authorization: 'Bearer bench',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface Row {
  endpoint: string;
  reqPerSec: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Server CPU time per answered request, µs (Linux only): steadier than req/s on a busy box. */
  cpuPerRequest: number | undefined;
  /**
   * This process's CPU time per request, µs: autocannon and the signing. It shares the 2 cores
   * with the server, so a client that costs more per request lowers req/s on its own.
   */
  clientCpuPerRequest: number;
}

/** CPU time (user + system) a process has used, in ms, from /proc; undefined elsewhere. */
function cpuMs(pid: number | undefined): number | undefined {
  const file = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(file)) return undefined;
  const fields = readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks * 10 : undefined; // USER_HZ is 100 on Linux
}

type Request = NonNullable<autocannon.Options['requests']>[number];

async function measure(
  endpoint: string,
  server: Child,
  request: Request,
  opts: { duration: number; connections: number },
): Promise<Row> {
  const url = server.url;
  const cpuBefore = cpuMs(server.proc.pid);
  const clientBefore = process.cpuUsage();
  const result = await autocannon({
    url,
    connections: opts.connections,
    duration: opts.duration,
    requests: [request],
  });
  return {
    endpoint,
    reqPerSec: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuPerRequest: cpuUse(cpuBefore, cpuMs(server.proc.pid), result.requests.total),
    clientCpuPerRequest: clientCpu(process.cpuUsage(clientBefore), result.requests.total),
  };
}

function cpuUse(
  before: number | undefined,
  after: number | undefined,
  n: number,
): number | undefined {
  if (before === undefined || after === undefined || n === 0) return undefined;
  return ((after - before) * 1000) / n;
}

function clientCpu(used: NodeJS.CpuUsage, n: number): number {
  return n === 0 ? 0 : (used.user + used.system) / n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { duration: { type: 'string' }, connections: { type: 'string' } },
  });
  const opts = {
    duration: Number(values.duration ?? 5),
    connections: Number(values.connections ?? 50),
  };

  const bare = await startChild(['bench/exchange.ts', BARE]);
  const sandbox = await startChild([
    'src/exchange/cli.ts',
    '--port',
    '0',
    '--no-rate-limits',
    '--admin-token',
    'bench',
    '--log-level',
    'silent',
  ]);
  try {
    const { wallet } = await control<{ wallet: string }>(sandbox.url, '/sandbox/wallets');
    const key = await control<{ apiKey: string; secret: string }>(sandbox.url, '/sandbox/keys', {
      wallet,
      permission: 'read',
    });
    const fixtures = (await (
      await fetch(`${sandbox.url}/fixtures?bettingOpen=true&limit=1`)
    ).json()) as { fixtures: { contractId: string; homeTeam: string }[] };
    const f = fixtures.fixtures[0];
    if (!f) throw new Error('no open fixture');

    // A signature must be new for every request: the query (GET) or clientOrderId (POST) carries
    // a counter, so two requests in the same millisecond still differ. Signing runs in this
    // process, on the cores the server needs too, so it is kept cheap: the secret is imported
    // once as a KeyObject and autocannon's request copy is edited in place.
    let n = 0;
    const secret = createSecretKey(Buffer.from(key.secret, 'utf8'));
    const sign = (method: string, path: string, payload: string) => {
      const ts = String(Date.now());
      const sig = createHmac('sha256', secret)
        .update(`${ts}${key.apiKey}60000${method}${path}${payload}`)
        .digest('hex');
      return {
        'x-api-key': key.apiKey,
        'x-timestamp': ts,
        'x-recv-window': '60000',
        'x-signature': sig,
      };
    };
    const bodyHead = `{"legs":[{"contractId":"${f.contractId}","outcome":"${f.homeTeam}","side":"BUY","market":"DRAW_NO_BET"}],"qty":"10","marketUnit":"BASE","clientOrderId":"b`;

    const rows: Row[] = [];
    rows.push(await measure('bare Fastify GET /', bare, { method: 'GET', path: '/' }, opts));
    rows.push(await measure('GET /health', sandbox, { method: 'GET', path: '/health' }, opts));
    rows.push(
      await measure(
        'signed GET /orders',
        sandbox,
        {
          method: 'GET',
          setupRequest: (req) => {
            const qs = `limit=50&offset=${n++ % 1_000_000}`;
            req.path = `/orders?${qs}`;
            req.headers = sign('GET', '/orders', qs);
            return req;
          },
        },
        opts,
      ),
    );
    rows.push(
      await measure(
        'signed POST /order/rfq',
        sandbox,
        {
          method: 'POST',
          path: '/order/rfq',
          setupRequest: (req) => {
            const body = `${bodyHead}${n++}"}`;
            const headers: Record<string, string> = sign('POST', '/order/rfq', body);
            headers['content-type'] = 'application/json';
            req.body = body;
            req.headers = headers;
            return req;
          },
        },
        opts,
      ),
    );

    const base = rows[0]?.reqPerSec ?? 1;
    const table = rows.map((r) => ({
      endpoint: r.endpoint,
      'req/s': Math.round(r.reqPerSec),
      'p99 ms': r.p99,
      'vs bare': `${(r.reqPerSec / base).toFixed(2)}x`,
      'server CPU µs/req': r.cpuPerRequest === undefined ? '-' : Math.round(r.cpuPerRequest),
      'client CPU µs/req': Math.round(r.clientCpuPerRequest),
      'non-2xx': r.non2xx,
      errors: r.errors,
    }));
    const load = existsSync('/proc/loadavg')
      ? readFileSync('/proc/loadavg', 'utf8').split(' ')[0]
      : '?';
    console.log(
      `\nautocannon: ${opts.connections} connections, ${opts.duration} s each, servers in child processes (load average ${load})\n`,
    );
    console.table(table);
    const rfq = rows[3];
    if (rfq) {
      const okRate = rfq.reqPerSec / base >= 0.5;
      const okP99 = rfq.p99 < 20;
      console.log(
        `\nsigned RFQ: ${okRate ? 'meets' : 'MISSES'} >= 0.5x bare; p99 ${rfq.p99} ms ${okP99 ? 'meets' : 'MISSES'} < 20 ms`,
      );
    }
  } finally {
    await stopChild(sandbox);
    await stopChild(bare);
  }
}

if (process.argv.includes(BARE)) await serveBare();
else await main();
