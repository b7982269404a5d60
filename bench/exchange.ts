/**
 * `npm run bench:exchange`: throughput and tail latency of the sandbox exchange as a user runs
 * it, against a bare Fastify hello-world measured in the same run (issue 10's table).
 *
 * The exchange is started like a user starts it, `npm run --silent exchange -- --port 0
 * --no-rate-limits` with default options (plus --admin-token, the only way to get a key; it adds
 * the /sandbox routes and nothing to the public ones), its log going to a file; a second one
 * adds `--log-level silent`. Signed requests come from a pool signed before each measurement,
 * each request used once (every signature is new: the timestamp and recv window vary, docs/api.md
 * 5), so the load generator does no HMAC while it measures and the figure is the server's.
 *
 * Every target is measured in several rounds; each round measures the bare server too, and a
 * target's ratio is its req/s over the bare req/s of the same round. The table shows medians.
 * On a busy machine req/s swings with whatever else runs, so the table also gives the ratio of
 * server CPU per request (bare over target, from /proc): what the req/s ratio would be were each
 * server alone on a core, and a figure that barely moves with the load.
 * Also shown: the HMAC ceiling, a bare Fastify POST /order/rfq that reads the same body, checks
 * the same signature and parses the JSON (bench/exchange-servers.ts), and the server's CPU time
 * per request, which moves much less than req/s with the load of the shared machine.
 *
 * Options: --rounds N (default 3), --duration S per measurement (default 3),
 * --connections N (default 50).
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { signHeaders } from '../src/main/client/signer.js';
import { SERVE_BARE, SERVE_CEILING, serveBare, serveCeiling } from './exchange-servers.js';

interface Server {
  name: string;
  proc: ChildProcess;
  url: string;
  /** The process that answers (the node under npm), for its CPU time. */
  pid: number | undefined;
}

/** Starts a server and waits for its listening line; stderr goes to `stderrFd` or is dropped. */
async function start(name: string, cmd: string, args: string[], stderrFd?: number) {
  const proc = spawn(cmd, args, {
    stdio: ['ignore', 'pipe', stderrFd ?? 'ignore'],
    env: { ...process.env, BENCH_SECRET: process.env.BENCH_SECRET ?? '' },
  });
  const lines = createInterface({ input: proc.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  const url = (JSON.parse(line) as { url: string }).url;
  return { name, proc, url, pid: leafPid(proc.pid) } satisfies Server;
}

function startReference(name: string, flag: string): Promise<Server> {
  return start(name, process.execPath, ['--import', 'tsx', 'bench/exchange.ts', flag]);
}

function startExchange(name: string, extra: string[], logFile: string): Promise<Server> {
  const args = ['run', '--silent', 'exchange', '--', '--port', '0', '--no-rate-limits'];
  return start(name, 'npm', [...args, '--admin-token', 'bench', ...extra], openSync(logFile, 'w'));
}

/** npm runs the server as its child: follow single children down to the process that works. */
function leafPid(pid: number | undefined): number | undefined {
  let current = pid;
  for (let depth = 0; current !== undefined && depth < 4; depth++) {
    const file = `/proc/${current}/task/${current}/children`;
    if (!existsSync(file)) return current;
    const kids = readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean);
    if (kids.length !== 1) return current;
    current = Number(kids[0]);
  }
  return current;
}

async function stop(s: Server): Promise<void> {
  if (s.proc.exitCode !== null) return;
  const exited = once(s.proc, 'exit');
  if (s.pid !== undefined && s.pid !== s.proc.pid) process.kill(s.pid, 'SIGTERM');
  else s.proc.kill('SIGTERM');
  await exited;
}

/** CPU time (user + system) a process has used, in ms, from /proc; undefined elsewhere. */
function cpuMs(pid: number | undefined): number | undefined {
  const file = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(file)) return undefined;
  const fields = readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks * 10 : undefined; // USER_HZ is 100 on Linux
}

// ------------------------------------------------------------------ signing

interface Key {
  apiKey: string;
  secret: string;
  /** The next unused recv window: each pool signs with windows of its own. */
  window?: number;
}

type Req = { method: string; path: string; headers: Record<string, string>; body?: string };

/**
 * Recv window of the first pool, ms: long enough for a pool signed just before a measurement
 * to stay valid to its end (set from --duration), short like a client's (the default is 5 s),
 * since the exchange keeps every signature for its window (docs/api.md 5).
 */
let firstWindow = 10_000;

/**
 * `count` requests, each signed once: the timestamp steps back 1 ms per request over 1 s, and
 * every 1000 requests the recv window grows by 1 ms. No key ever signs two pools with the same
 * window, so no two signatures are the same, and each stays inside its window for
 * `firstWindow` - 1 s of the exchange clock after `now`.
 */
function signPool(key: Key, count: number, now: number, base: Omit<Req, 'headers'>): Req[] {
  const q = base.path.indexOf('?');
  const path = q === -1 ? base.path : base.path.slice(0, q);
  const payload = base.body ?? (q === -1 ? '' : base.path.slice(q + 1));
  const first = key.window ?? firstWindow;
  const pool: Req[] = [];
  for (let i = 0; i < count; i++) {
    const headers = signHeaders({
      credentials: key,
      timestamp: now - (i % 1000),
      recvWindow: first + Math.floor(i / 1000),
      method: base.method,
      path,
      payload,
    });
    if (base.body !== undefined) headers['content-type'] = 'application/json';
    pool.push({ ...base, headers });
  }
  key.window = first + Math.ceil(count / 1000);
  if (key.window > 60_000) throw new Error('the key has signed too many pools');
  return pool;
}

/** The bytes autocannon would send for `r` (HTTP/1.1, keep-alive). */
function requestBytes(host: string, r: Req): Buffer {
  const lines = [`${r.method} ${r.path} HTTP/1.1`, `Host: ${host}`, 'Connection: keep-alive'];
  for (const [name, value] of Object.entries(r.headers)) lines.push(`${name}: ${value}`);
  const body = r.body === undefined ? Buffer.alloc(0) : Buffer.from(r.body);
  if (body.length > 0) lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]);
}

async function signedCall<T>(
  server: Server,
  key: Key,
  clock: () => number,
  r: Omit<Req, 'headers'>,
): Promise<T> {
  const [req] = signPool(key, 1, clock(), r);
  const res = await fetch(server.url + r.path, {
    method: r.method,
    headers: req!.headers,
    ...(r.body !== undefined ? { body: r.body } : {}),
  });
  if (!res.ok) throw new Error(`${r.method} ${r.path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function control<T>(server: Server, path: string, body?: unknown): Promise<T> {
  const res = await fetch(server.url + path, {
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

/** A wallet with a trade key and 12 placed orders, so GET /orders?limit=10 reads a full page. */
async function prepare(server: Server) {
  const serverTime = async () =>
    ((await (await fetch(`${server.url}/time`)).json()) as { serverTime: number }).serverTime;
  const offset = (await serverTime()) - Date.now();
  const clock = () => Date.now() + offset;
  const { wallet } = await control<{ wallet: string }>(server, '/sandbox/wallets');
  const key = await control<Key>(server, '/sandbox/keys', {
    wallet,
    permission: 'trade',
    expiresAt: clock() + 86_400_000,
  });
  const list = (await (await fetch(`${server.url}/fixtures?bettingOpen=true&limit=1`)).json()) as {
    fixtures: { contractId: string; homeTeam: string }[];
  };
  const f = list.fixtures[0];
  if (!f) throw new Error('no open fixture');
  const legs = [
    { contractId: f.contractId, outcome: f.homeTeam, side: 'BUY', market: 'DRAW_NO_BET' },
  ];
  for (let i = 0; i < 12; i++) {
    const body = JSON.stringify({ orderType: 'MARKET', legs, qty: '1', marketUnit: 'BASE' });
    await signedCall(server, key, clock, { method: 'POST', path: '/order', body });
  }
  const rfqBody = JSON.stringify({ legs, qty: '10', marketUnit: 'BASE' });
  return { key, clock, rfqBody };
}

// ------------------------------------------------------------------ measuring

interface Sample {
  reqPerSec: number;
  p99: number;
  bad: number;
  /** Server CPU µs per answered request (Linux). */
  cpu: number | undefined;
  /** Requests the pool could not cover (should be 0). */
  short: number;
}

interface Target {
  name: string;
  server: () => Server;
  /** Static request, or a pool signed just before each measurement. */
  request: Req | ((count: number) => Req[]);
}

async function measure(t: Target, duration: number, connections: number, poolSize: number) {
  const server = t.server();
  let next = 0;
  let short = 0;
  let pool: Buffer[] | undefined;
  const options: autocannon.Options = { url: server.url, connections, duration };
  if (typeof t.request === 'function') {
    // autocannon's setupRequest would rebuild every request in this process, on the cores the
    // server needs, and its requests[] would send the same list on every connection. Instead
    // each connection takes the next pre-built request of one shared pool, so a signed request
    // costs the load generator what a static one does.
    const host = new URL(server.url).host;
    const built = t.request(poolSize).map((r) => requestBytes(host, r));
    pool = built;
    options.setupClient = (client) => {
      client.getRequestBuffer = () => {
        const b = built[next++];
        if (b) return b;
        short++;
        return built[built.length - 1]!; // a replay: answered 401, counted below
      };
    };
  } else {
    options.requests = [t.request];
  }
  const before = cpuMs(server.pid);
  const result = await autocannon(options);
  const after = cpuMs(server.pid);
  const n = result.requests.total;
  if (pool && next < n) throw new Error('autocannon did not take its requests from the pool');
  return {
    reqPerSec: result.requests.average,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
    cpu:
      before === undefined || after === undefined || n === 0
        ? undefined
        : ((after - before) * 1000) / n,
    short,
  } satisfies Sample;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function load(): string {
  return existsSync('/proc/loadavg')
    ? readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
    : '?';
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
    },
  });
  const rounds = Number(values.rounds ?? 3);
  const duration = Number(values.duration ?? 3);
  const connections = Number(values.connections ?? 50);
  firstWindow = Math.max(10_000, (duration + 7) * 1000);
  const dir = mkdtempSync(join(tmpdir(), 'bench-exchange-'));
  const servers: Server[] = [];
  const loadBefore = load();
  try {
    const bare = await startReference('bare', SERVE_BARE);
    servers.push(bare);
    const dflt = await startExchange('default', [], join(dir, 'default.log'));
    servers.push(dflt);
    const silent = await startExchange(
      'silent',
      ['--log-level', 'silent'],
      join(dir, 'silent.log'),
    );
    servers.push(silent);
    const d = await prepare(dflt);
    const s = await prepare(silent);
    process.env.BENCH_SECRET = d.key.secret;
    const ceiling = await startReference('ceiling', SERVE_CEILING);
    servers.push(ceiling);

    const rfq = { method: 'POST', path: '/order/rfq', body: d.rfqBody };
    const targets: Target[] = [
      {
        name: 'GET /health, default',
        server: () => dflt,
        request: { method: 'GET', path: '/health', headers: {} },
      },
      {
        name: 'GET /health, --log-level silent',
        server: () => silent,
        request: { method: 'GET', path: '/health', headers: {} },
      },
      {
        name: 'signed GET /orders?limit=10, default',
        server: () => dflt,
        request: (n) => signPool(d.key, n, d.clock(), { method: 'GET', path: '/orders?limit=10' }),
      },
      {
        name: 'signed POST /order/rfq, default',
        server: () => dflt,
        request: (n) => signPool(d.key, n, d.clock(), rfq),
      },
      {
        name: 'signed POST /order/rfq, silent',
        server: () => silent,
        request: (n) => signPool(s.key, n, s.clock(), { ...rfq, body: s.rfqBody }),
      },
      {
        name: 'ceiling: bare POST, same body + HMAC',
        server: () => ceiling,
        request: (n) => signPool(d.key, n, Date.now(), rfq),
      },
    ];
    const bareTarget: Target = {
      name: 'bare Fastify GET /',
      server: () => bare,
      request: { method: 'GET', path: '/', headers: {} },
    };

    // Warm every server's JIT before anything counts.
    for (const t of [bareTarget, ...targets]) await measure(t, 1, connections, 40_000);

    const bareRuns: Sample[] = [];
    const runs = new Map<string, { sample: Sample; ratio: number; cpuRatio: number }[]>();
    for (let r = 0; r < rounds; r++) {
      // Bare before every second target, so no ratio leans on a bare run far away in time.
      let lastBare: Sample | undefined;
      for (let i = 0; i < targets.length; i++) {
        if (i % 2 === 0) {
          lastBare = await measure(bareTarget, duration, connections, 0);
          bareRuns.push(lastBare);
        }
        const t = targets[i]!;
        // The pool covers the bare rate for the whole run with room to spare.
        const poolSize = Math.ceil(lastBare!.reqPerSec * duration * 1.5) + 5_000;
        const sample = await measure(t, duration, connections, poolSize);
        const list = runs.get(t.name) ?? [];
        list.push({
          sample,
          ratio: sample.reqPerSec / lastBare!.reqPerSec,
          cpuRatio: (lastBare!.cpu ?? NaN) / (sample.cpu ?? NaN),
        });
        runs.set(t.name, list);
      }
    }

    const row = (
      name: string,
      samples: Sample[],
      ratios: number[] | undefined,
      cpuRatios: number[] | undefined,
    ) => ({
      target: name,
      'req/s': Math.round(median(samples.map((x) => x.reqPerSec))),
      'vs bare': ratios ? `${median(ratios).toFixed(2)}x` : '1.00x',
      'ratio range': ratios
        ? `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`
        : '',
      'CPU vs bare': cpuRatios ? `${median(cpuRatios).toFixed(2)}x` : '1.00x',
      'p99 ms': median(samples.map((x) => x.p99)),
      'server CPU µs/req': samples.every((x) => x.cpu !== undefined)
        ? Math.round(median(samples.map((x) => x.cpu!)))
        : '-',
      'non-2xx+errors': samples.reduce((a, x) => a + x.bad + x.short, 0),
    });
    const table = [row(bareTarget.name, bareRuns, undefined, undefined)];
    for (const t of targets) {
      const list = runs.get(t.name) ?? [];
      table.push(
        row(
          t.name,
          list.map((x) => x.sample),
          list.map((x) => x.ratio),
          list.map((x) => x.cpuRatio),
        ),
      );
    }
    const logLines = readFileSync(join(dir, 'default.log'), 'utf8').split('\n').length - 1;
    console.log(
      `\nautocannon: ${connections} connections, ${rounds} rounds of ${duration} s per target, medians; load average ${loadBefore} before, ${load()} after`,
    );
    console.log(`log lines written by the default server: ${logLines}\n`);
    console.table(table);
    console.log(
      "\nvs bare: req/s over the bare req/s of the same round. CPU vs bare: bare server CPU per request over the target's, the same ratio were the server alone on a core; it moves far less with the load of a shared machine.",
    );
    const ratioOf = (name: string) => median((runs.get(name) ?? []).map((x) => x.ratio));
    const cpuOf = (name: string) => median((runs.get(name) ?? []).map((x) => x.cpuRatio));
    const p99Of = (name: string) => median((runs.get(name) ?? []).map((x) => x.sample.p99));
    const health = ratioOf('GET /health, default');
    const quote = ratioOf('signed POST /order/rfq, default');
    const quoteP99 = p99Of('signed POST /order/rfq, default');
    const verdict = (x: number, min: number) => (x >= min ? 'meets' : 'MISSES');
    const healthCpu = cpuOf('GET /health, default');
    const quoteCpu = cpuOf('signed POST /order/rfq, default');
    const ceilingCpu = cpuOf('ceiling: bare POST, same body + HMAC');
    console.log(
      `\nGET /health default: ${health.toFixed(2)}x req/s (${verdict(health, 0.8)} >= 0.8x bare), ${healthCpu.toFixed(2)}x CPU (${verdict(healthCpu, 0.8)})`,
    );
    console.log(
      `signed POST /order/rfq default: ${quote.toFixed(2)}x req/s (${verdict(quote, 0.4)} >= 0.4x bare), ${quoteCpu.toFixed(2)}x CPU (${verdict(quoteCpu, 0.4)}); p99 ${quoteP99} ms (${quoteP99 <= 20 ? 'meets' : 'MISSES'} <= 20 ms); the HMAC ceiling is ${ceilingCpu.toFixed(2)}x CPU`,
    );
  } finally {
    for (const s of servers.reverse()) await stop(s);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes(SERVE_BARE)) await serveBare();
else if (process.argv.includes(SERVE_CEILING)) await serveCeiling(process.env.BENCH_SECRET ?? '');
else await main();
