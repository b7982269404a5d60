/** The standalone server: `tsx src/exchange/cli.ts`, one stdout line, logs on stderr, clean stop. */
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../harness/temp.js';
import { spawnProgram, untilListening, type Program } from '../../harness/processes.js';

const programs: Program[] = [];
afterEach(() => {
  for (const p of programs.splice(0)) p.signal('SIGKILL');
});

/**
 * `viaNpx` runs the command as documented; otherwise node loads tsx in-process, so a signal
 * reaches the exchange itself rather than a wrapper (npx does not pass SIGINT on).
 */
function run(args: string[], viaNpx = false): Program {
  const [cmd, pre] = viaNpx ? ['npx', ['tsx']] : [process.execPath, ['--import', 'tsx']];
  const p = spawnProgram(cmd, [...pre, 'src/exchange/cli.ts', ...args]);
  programs.push(p);
  return p;
}

const start = (args: string[], viaNpx = false) =>
  untilListening(run(args, viaNpx), `exchange ${args.join(' ')}`, 25_000);

describe('exchange CLI', () => {
  // How long a stop takes is measured by `npm run bench:timing`, not asserted here.
  it('writes exactly one listening line, answers, logs JSON to stderr, and stops on SIGTERM', async () => {
    const s = await start(['--port', '0', '--admin-token', 't'], true);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(JSON.parse(s.stdout().split('\n')[0]!)).toEqual({ event: 'listening', url: s.url });

    const health = await fetch(`${s.url}/health`);
    expect(health.status).toBe(200);
    const wallet = await fetch(`${s.url}/sandbox/wallets`, {
      method: 'POST',
      headers: { authorization: 'Bearer t' },
    });
    expect(wallet.status).toBe(201);

    s.signal('SIGTERM');
    const exit = await s.exited;
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    // Nothing is left listening.
    await expect(fetch(`${s.url}/health`)).rejects.toThrow();

    expect(s.stdout()).toBe(`${JSON.stringify({ event: 'listening', url: s.url })}\n`);
    const logLines = s
      .stderr()
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    for (const l of logLines) expect(() => JSON.parse(l) as unknown).not.toThrow();
    // Logs never carry a secret or a signature.
    expect(s.stderr()).not.toMatch(/"secret"/);
  });

  it('stops on SIGINT, even with a keep-alive connection open', async () => {
    const s = await start(['--port', '0', '--no-rate-limits']);
    const res = await fetch(`${s.url}/time`, { headers: { connection: 'keep-alive' } });
    expect(res.status).toBe(200);
    s.signal('SIGINT');
    const exit = await s.exited;
    expect(exit.code === 0 || exit.signal === 'SIGINT').toBe(true);
    await expect(fetch(`${s.url}/health`)).rejects.toThrow();
  });

  it('answers 404 on /sandbox without --admin-token', async () => {
    const s = await start(['--port', '0']);
    const res = await fetch(`${s.url}/sandbox/wallets`, {
      method: 'POST',
      headers: { authorization: 'Bearer t' },
    });
    expect(res.status).toBe(404);
    s.signal('SIGTERM');
    await s.exited;
  });

  it('keeps its state in --data and reloads it on restart', async () => {
    const dir = tempDir('exchange-cli-');
    try {
      const file = `${dir.dir}/state.sqlite`;
      const a = await start(['--port', '0', '--admin-token', 't', '--data', file]);
      const created = (await (
        await fetch(`${a.url}/sandbox/wallets`, {
          method: 'POST',
          headers: { authorization: 'Bearer t' },
        })
      ).json()) as { wallet: string };
      const key = await fetch(`${a.url}/sandbox/keys`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({ wallet: created.wallet, permission: 'read' }),
      });
      const { apiKey } = (await key.json()) as { apiKey: string };
      a.signal('SIGTERM');
      await a.exited;

      const b = await start(['--port', '0', '--admin-token', 't', '--data', file]);
      const revoke = await fetch(`${b.url}/sandbox/keys/${apiKey}/revoke-grant`, {
        method: 'POST',
        headers: { authorization: 'Bearer t' },
      });
      expect(revoke.status).toBe(204); // the key survived the restart
      b.signal('SIGTERM');
      await b.exited;
    } finally {
      dir.cleanup();
    }
  });

  it('refuses bad options with a readable message on stderr and exit code 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--port', 'abc'], /--port/],
      [['--port', '70000'], /--port/],
      [['--block-ms', '-1'], /block-ms/],
      [['--price-budget', '0'], /--price-budget/],
      [['--bogus'], /bogus/],
      [['extra'], /argument|positional/i],
    ];
    // Started together: each is a separate process that exits at once.
    const runs = cases.map(([args]) => run(args));
    const exits = await Promise.all(runs.map((r) => r.exited));
    cases.forEach(([args, msg], i) => {
      expect(exits[i]?.code, args.join(' ')).toBe(2);
      expect(runs[i]?.stdout()).toBe('');
      expect(runs[i]?.stderr()).toMatch(msg);
    });
  });
});
