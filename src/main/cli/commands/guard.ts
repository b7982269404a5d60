/**
 * guard list | add | remove | pause | resume | log: the guardians of docs/guardians.md from the
 * command line, on the same store as the running app. Every rule goes through the app's
 * GuardBook (src/main/guard/book.ts), so the CLI refuses what the app refuses, in its words;
 * the log's CSV is the app's export (src/main/export/guard-log.ts), byte for byte.
 *
 * Nothing here sends an order: the rules live in the store, and the guardian of the account's
 * running session (the app, the browser host, `cli sync`) acts on them.
 */
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { AccountView } from '../../accounts/index.js';
import { exportGuardLogCsv } from '../../export/index.js';
import { FiresNowRefusal, GuardBook, type GuardViewContext } from '../../guard/index.js';
import { Refusal } from '../../refusal.js';
import { positionText, ruleText } from '../../guard/messages.js';
import { checkInput } from '../../ipc/validate.js';
import type { GuardRule, Store } from '../../store/index.js';
import { DEFAULT_INTERVALS } from '../../sync/index.js';
import { boostedPositions } from '../../sync/streams/prices.js';
import {
  GUARD_KINDS,
  GUARD_LOG_EVENTS,
  type ArmGuards,
  type DisarmGuards,
  type GuardLogScope,
  type GuardRuleView,
  type GuardSpec,
} from '../../../shared/ipc/contract.js';
import { formatUsd } from '../../../shared/money.js';
import { parseOptions, str, time, type OptionSpec, type Parsed } from '../args.js';
import { openAccounts, openCommandContext } from '../context.js';
import { EXIT, type CliIO, type Output } from '../output.js';
import { UsageError } from '../usage.js';

const ADD: OptionSpec = {
  kind: { type: 'string' },
  percent: { type: 'string' },
  price: { type: 'string' },
  minutes: { type: 'string' },
  share: { type: 'string' },
  confirm: { type: 'string' },
  now: { type: 'boolean' },
};
const LOG: OptionSpec = {
  event: { type: 'string' },
  kind: { type: 'string' },
  rule: { type: 'string' },
  contract: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  csv: { type: 'boolean' },
  out: { type: 'string' },
  bom: { type: 'boolean' },
  'no-formula-guard': { type: 'boolean' },
};

/** Rows per read of the log (GuardLogQuery's largest page). */
const LOG_PAGE = 500;

export async function guardCommand(args: string[], io: CliIO, out: Output): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'list':
      return list(rest, io, out);
    case 'add':
      return add(rest, io, out);
    case 'remove':
      return remove(rest, io, out);
    case 'pause':
      return pause(rest, io, out, true);
    case 'resume':
      return pause(rest, io, out, false);
    case 'log':
      return log(rest, io, out);
    case undefined:
      throw new UsageError(
        'Say what to do with guardians: list, add, remove, pause, resume or log.',
      );
    default:
      throw new UsageError(
        `Unknown guard command "${sub}" (list, add, remove, pause, resume or log).`,
      );
  }
}

/**
 * How the guardian judges the account's figures now: the bridge's name for the account, and the
 * polling interval its sync engine would use (SyncEngine.positionsPollMs: fast while a boosted
 * position is open), so "waiting for fresh prices" means here what it means in the app.
 */
function viewContext(store: Store, account: AccountView): GuardViewContext {
  const boosted = boostedPositions({ store, accountId: account.id }).length > 0;
  return {
    bridgeId: account.isPaper ? null : String(account.id),
    pollMs: boosted ? DEFAULT_INTERVALS.positionsBoostedMs : DEFAULT_INTERVALS.positionsIdleMs,
  };
}

const LIVE: ReadonlySet<string> = new Set(['armed', 'firing']);

// ------------------------------------------------------------------ list

async function list(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, { all: { type: 'boolean' } });
  if (p.values['all'] !== true) {
    const ctx = await openCommandContext(p, io, out, { exchange: false });
    try {
      const n = listAccount(new GuardBook({ store: ctx.store }), ctx.store, ctx.account, out, true);
      if (n === 0) out.say(`No rule is armed on account "${ctx.account.label}".`);
      return EXIT.ok;
    } finally {
      await ctx.close();
    }
  }
  if (str(p, 'account') !== undefined) {
    throw new UsageError('--all lists every account; leave out --account.');
  }
  const { store, accounts } = await openAccounts(p, io, out);
  try {
    const book = new GuardBook({ store });
    const armedOn = new Set(store.guards.allLive().map((r) => r.accountId));
    let n = 0;
    let first = true;
    for (const account of accounts.list()) {
      if (!armedOn.has(account.id)) continue;
      n += listAccount(book, store, account, out, first);
      first = false;
    }
    if (first) sayPause(book, out);
    if (n === 0) out.say('No rule is armed on any account.');
    return EXIT.ok;
  } finally {
    store.close();
  }
}

/** Prints the account's armed and firing rules, one JSON line each; returns how many. */
function listAccount(
  book: GuardBook,
  store: Store,
  account: AccountView,
  out: Output,
  withPause: boolean,
): number {
  const view = book.view(account.id, viewContext(store, account));
  if (withPause) sayPause(book, out);
  const rules = view.rules.filter((r) => LIVE.has(r.state));
  for (const rule of rules) {
    out.json({ account: account.label, ...rule });
    out.say(`Rule ${rule.id}, ${ruleLine(rule)}`);
  }
  const { limits, usedToday } = view;
  const limit = [
    `${usedToday.closes} of ${limits.closes} automatic closes`,
    limits.contracts !== null ? `${usedToday.contracts} of ${limits.contracts} contracts` : null,
    limits.stake !== null
      ? `${formatUsd(usedToday.stake)} of ${formatUsd(limits.stake)} stake`
      : null,
  ].filter((s) => s !== null);
  out.say(
    `Account "${account.label}": ${rules.length} rule${rules.length === 1 ? '' : 's'} armed; ` +
      `used today ${limit.join(', ')}.` +
      (view.readOnly ? ' Its key may only read, so no rule can be armed on it.' : ''),
  );
  return rules.length;
}

/**
 * "ARS (ARS v CHE): stop loss at −10 %, closes 50 %. Armed, 5.8 points above the stop at −10 %.
 * Waiting for fresh prices." The rule in the GuardBook's words (guard/messages.ts).
 */
function ruleLine(rule: GuardRuleView): string {
  const name = rule.fixture
    ? `${rule.fixture.homeTeam} v ${rule.fixture.awayTeam}`
    : rule.contractId;
  const state =
    rule.state === 'firing'
      ? `Closing${rule.contracts !== null ? ` ${rule.contracts} contracts` : ''}` +
        (rule.clientOrderId !== null ? ` (order ${rule.clientOrderId})` : '')
      : rule.state.charAt(0).toUpperCase() + rule.state.slice(1);
  const distance = rule.distance !== null ? `, ${rule.distance}` : '';
  const hold = rule.holdMessage !== null ? ` ${rule.holdMessage}` : '';
  return `${positionText(rule.outcome, name)}: ${ruleText(rule.spec)}. ${state}${distance}.${hold}`;
}

function sayPause(book: GuardBook, out: Output): void {
  const { paused, at } = book.paused();
  if (!paused) return;
  const since = at !== null ? ` since ${new Date(at).toISOString()}` : '';
  out.say(`Guardians are paused${since}: no rule will close a position until \`guard resume\`.`);
}

// ------------------------------------------------------------------ add

async function add(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, ADD, 2);
  const [contractId, outcome] = p.positionals;
  if (contractId === undefined || outcome === undefined) {
    throw new UsageError('Say which position: guard add <contract> <outcome> --kind K.');
  }
  const input: ArmGuards = { contractId, outcome, rules: [specOf(p)] };
  if (p.values['now'] === true) input.fireNow = true;
  const verdict = checkInput('guards:arm', input);
  if (!verdict.ok) throw new UsageError(`The rule does not fit: ${verdict.problems.join('; ')}.`);

  const ctx = await openCommandContext(p, io, out, { exchange: false });
  try {
    const book = new GuardBook({ store: ctx.store });
    const vctx = viewContext(ctx.store, ctx.account);
    let armed: GuardRule[];
    try {
      armed = book.arm(ctx.account.id, input, vctx.pollMs);
    } catch (err) {
      // The app's dialog says it before Arm; here the user says it with --now.
      if (err instanceof FiresNowRefusal) {
        throw new Refusal(err.kind, `${err.message} To arm it anyway, add --now.`);
      }
      throw err;
    }
    const view = book.view(ctx.account.id, vctx);
    for (const rule of armed) {
      const shown = view.rules.find((r) => r.id === rule.id);
      out.json({ account: ctx.account.label, ...(shown ?? rule) });
      out.say(
        `Armed rule ${rule.id}, ${shown ? ruleLine(shown) : `${ruleText(rule.spec)}.`} It acts ` +
          `while Betdesk or \`sync\` runs for account "${ctx.account.label}".`,
      );
    }
    sayPause(book, out);
    return EXIT.ok;
  } finally {
    await ctx.close();
  }
}

/**
 * The rule the flags describe; the shape is checked here, its sense by GuardBook.arm, which
 * judges it by the one definition the app's dialog uses too (src/shared/rules/guard-kinds.ts).
 */
function specOf(p: Parsed): GuardSpec {
  const kindWord = str(p, 'kind');
  if (kindWord === undefined) {
    throw new UsageError(`--kind is required (one of ${GUARD_KINDS.join(', ')}).`);
  }
  const kind = wordOf('kind', kindWord, GUARD_KINDS);
  const spec: GuardSpec = {
    kind,
    sharePercent: integer(p, 'share', 1, 100) ?? 100,
    confirmations: integer(p, 'confirm', 1, 10) ?? 1,
  };
  const percent = str(p, 'percent');
  if (percent !== undefined) {
    if (!/^(?:0|[1-9][0-9]{0,2})(?:\.[0-9]{1,2})?$/.test(percent) || Number(percent) === 0) {
      throw new UsageError(
        `--percent must be a percentage above 0 and below 1000 with at most 2 decimals, such as 5 or 2.5 (got "${percent}").`,
      );
    }
    spec.percent = percent;
  }
  const price = str(p, 'price');
  if (price !== undefined) {
    if (!/^0\.[0-9]{1,4}$/.test(price)) {
      throw new UsageError(
        `--price must be a closing price between 0 and 1 with at most 4 decimals, such as 0.45 (got "${price}").`,
      );
    }
    spec.price = price;
  }
  const minutes = integer(p, 'minutes', 1, 1440);
  if (minutes !== undefined) spec.minutes = minutes;
  return spec;
}

function integer(p: Parsed, name: string, min: number, max: number): number | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  const n = /^\d{1,5}$/.test(v) ? Number(v) : Number.NaN;
  if (!(n >= min && n <= max)) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got "${v}").`);
  }
  return n;
}

/** One of `words`, any letter case, "-" for "_" (`--kind stop-loss`). */
function wordOf<T extends string>(name: string, v: string, words: readonly T[]): T {
  const w = v.toLowerCase().replace(/-/g, '_') as T;
  if (!words.includes(w)) {
    throw new UsageError(`--${name} must be one of ${words.join(', ')} (got "${v}").`);
  }
  return w;
}

// ------------------------------------------------------------------ remove

async function remove(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, {}, 2);
  const input = disarmOf(p.positionals);
  const ctx = await openCommandContext(p, io, out, { exchange: false });
  try {
    const book = new GuardBook({ store: ctx.store });
    const disarmed = book.disarm(ctx.account.id, input);
    for (const rule of disarmed) {
      out.json(removed(ctx.account.label, rule));
      out.say(
        `Disarmed rule ${rule.id}: ${ruleText(rule.spec)} on ${rule.contractId} ${rule.outcome}.`,
      );
    }
    if (disarmed.length > 0) return EXIT.ok;
    out.say(
      input.ruleId !== undefined
        ? `Rule ${input.ruleId} is not armed on account "${ctx.account.label}"; nothing was disarmed.`
        : `No rule is armed on ${input.contractId} ${input.outcome} on account "${ctx.account.label}"; nothing was disarmed.`,
    );
    return EXIT.failed;
  } finally {
    await ctx.close();
  }
}

/** `<ruleId>` alone, or `<contract> <outcome>`: every armed rule of that position. */
function disarmOf(positionals: string[]): DisarmGuards {
  const [first, second] = positionals;
  if (first === undefined) {
    throw new UsageError(
      'Say which rule: guard remove <ruleId>, or guard remove <contract> <outcome>.',
    );
  }
  if (second !== undefined) return { contractId: first, outcome: second };
  const id = /^\d{1,12}$/.test(first) ? Number(first) : 0;
  if (id < 1) {
    throw new UsageError(
      `"${first}" is not a rule id; to disarm a position's rules give its contract and outcome.`,
    );
  }
  return { ruleId: id };
}

function removed(account: string, rule: GuardRule) {
  return {
    account,
    disarmed: rule.id,
    contractId: rule.contractId,
    outcome: rule.outcome,
    kind: rule.spec.kind,
    // GuardBook.disarm answers the rules as they were; these are the ones it disarmed.
    state: 'disarmed' as const,
  };
}

// ------------------------------------------------------------------ pause, resume

/** The pause holds every rule of every account, so no account is chosen. */
async function pause(args: string[], io: CliIO, out: Output, paused: boolean): Promise<number> {
  const p = parseOptions(args, {});
  const { store } = await openAccounts(p, io, out);
  try {
    const now = new GuardBook({ store }).setPaused(paused);
    out.json({ paused: now.paused, pausedAt: now.at });
    out.say(
      now.paused
        ? 'Guardians paused: no rule of any account will close a position until `guard resume`.'
        : 'Guardians resumed: armed rules watch their positions again.',
    );
    return EXIT.ok;
  } finally {
    store.close();
  }
}

// ------------------------------------------------------------------ log

async function log(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, LOG);
  const scope = scopeOf(p);
  const csv = p.values['csv'] === true;
  if (!csv) {
    for (const flag of ['out', 'bom', 'no-formula-guard']) {
      if (p.values[flag] !== undefined) throw new UsageError(`--${flag} goes with --csv.`);
    }
  }
  const ctx = await openCommandContext(p, io, out, { exchange: false });
  try {
    const accountId = ctx.account.id;
    if (csv) return await logCsv(p, ctx.store, accountId, scope, io, out);
    const book = new GuardBook({ store: ctx.store });
    const bridgeId = viewContext(ctx.store, ctx.account).bridgeId;
    let n = 0;
    for (let offset = 0; ; offset += LOG_PAGE) {
      const page = book.log(accountId, bridgeId, { ...scope, limit: LOG_PAGE, offset });
      for (const row of page.rows) out.json(row);
      n += page.rows.length;
      if (page.rows.length < LOG_PAGE) break;
    }
    out.say(`guard log: ${n} row${n === 1 ? '' : 's'} from the local store, newest first.`);
    return EXIT.ok;
  } finally {
    await ctx.close();
  }
}

/** The CSV of the app's export: into --out atomically, or onto standard output. */
async function logCsv(
  p: Parsed,
  store: Store,
  accountId: number,
  scope: GuardLogScope,
  io: CliIO,
  out: Output,
): Promise<number> {
  const options = {
    bom: p.values['bom'] === true,
    formulaGuard: p.values['no-formula-guard'] !== true,
  };
  const file = str(p, 'out');
  if (file !== undefined) {
    const target = path.resolve(file);
    const { rows } = await exportGuardLogCsv(store, target, { accountId, ...scope }, options);
    out.json({ exported: 'guards', rows, out: target });
    out.say(`Wrote ${rows} guardian log row${rows === 1 ? '' : 's'} to ${target}.`);
    return EXIT.ok;
  }
  // Standard output stays open for the process: the CSV goes through a stream of its own.
  const pipe = new PassThrough();
  pipe.pipe(io.stdout, { end: false });
  const { rows } = await exportGuardLogCsv(store, pipe, { accountId, ...scope }, options);
  out.say(`Wrote ${rows} guardian log row${rows === 1 ? '' : 's'}.`);
  return EXIT.ok;
}

function scopeOf(p: Parsed): GuardLogScope {
  const from = time(p, 'from');
  const to = time(p, 'to');
  if (from !== undefined && to !== undefined && from >= to) {
    throw new UsageError('--from must be before --to.');
  }
  const event = str(p, 'event');
  const kind = str(p, 'kind');
  const rule = str(p, 'rule');
  const contract = str(p, 'contract');
  let ruleId: number | undefined;
  if (rule !== undefined) {
    ruleId = /^\d{1,12}$/.test(rule) ? Number(rule) : 0;
    if (ruleId < 1) throw new UsageError(`--rule must be a rule id (got "${rule}").`);
  }
  return {
    ...(event !== undefined ? { event: wordOf('event', event, GUARD_LOG_EVENTS) } : {}),
    ...(kind !== undefined ? { kind: wordOf('kind', kind, GUARD_KINDS) } : {}),
    ...(ruleId !== undefined ? { ruleId } : {}),
    ...(contract !== undefined ? { contractId: contract } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
  };
}
