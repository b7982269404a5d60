/** accounts add | list | remove: the secret comes from standard input and goes to the keychain. */
import type { Readable } from 'node:stream';
import { armedRulesWords, removalWords } from '../../../shared/rules/account-removal.js';
import { parseOptions, required, type OptionSpec } from '../args.js';
import { openAccounts } from '../context.js';
import { EXIT, type CliIO, type Output } from '../output.js';
import { UsageError } from '../usage.js';

const ADD: OptionSpec = {
  label: { type: 'string' },
  'api-key': { type: 'string' },
  'keep-unchecked': { type: 'boolean' },
};
const REMOVE: OptionSpec = { label: { type: 'string' }, yes: { type: 'boolean' } };

export async function accountsCommand(args: string[], io: CliIO, out: Output): Promise<number> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'add':
      return add(rest, io, out);
    case 'list':
      return list(rest, io, out);
    case 'remove':
      return remove(rest, io, out);
    case undefined:
      throw new UsageError('Say what to do with accounts: add, list or remove.');
    default:
      throw new UsageError(`Unknown accounts command "${sub}" (add, list or remove).`);
  }
}

async function add(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, ADD);
  const label = required(p, 'label', 'a name for the account');
  const baseUrl = required(p, 'base-url', 'the exchange address');
  const apiKey = required(p, 'api-key', 'the API key id');
  let secret: string;
  if (io.stdin.isTTY === true && hasRawMode(io.stdin)) {
    out.say('API secret (not shown), then Enter:');
    secret = await readHidden(io.stdin);
  } else {
    secret = await readSecret(io.stdin);
  }
  if (secret === '') {
    throw new UsageError('The API secret is read from standard input, and none was given.');
  }
  const { store, accounts } = await openAccounts(p, io, out);
  try {
    const keepUnchecked = p.values['keep-unchecked'] === true;
    const account = await accounts.add({ label, baseUrl, apiKey, secret, keepUnchecked });
    const { notice, ...shown } = account;
    out.json(shown);
    out.say(
      `Added account "${account.label}" (${account.permission} permission); its secret is in the system keychain.`,
    );
    if (notice !== undefined) out.say(notice);
    return EXIT.ok;
  } finally {
    store.close();
  }
}

async function list(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, {});
  const { store, accounts } = await openAccounts(p, io, out);
  try {
    const all = accounts.list();
    const shared = accounts.sameWallets();
    for (const a of all) out.json({ ...a, sameWalletAs: shared.get(a.id) ?? [] });
    if (all.length === 0) out.say('No accounts yet: add one with `accounts add`.');
    return EXIT.ok;
  } finally {
    store.close();
  }
}

async function remove(args: string[], io: CliIO, out: Output): Promise<number> {
  const p = parseOptions(args, REMOVE);
  const label = required(p, 'label', 'the account to remove');
  const { store, accounts } = await openAccounts(p, io, out);
  try {
    const deleted = accounts.removal(label);
    if (deleted === undefined) throw new UsageError(`There is no account named "${label}".`);
    // The app asks before its second press; here an armed rule (a real position left
    // unprotected on the exchange) needs --yes.
    if (deleted.armedRules > 0 && p.values.yes !== true) {
      throw new UsageError(
        `${armedRulesWords(deleted.armedRules)} Remove them first (guard remove), or run this again with --yes to remove "${label}" all the same.`,
      );
    }
    if (!(await accounts.remove(label))) {
      throw new UsageError(`There is no account named "${label}".`);
    }
    out.json({ removed: true, label, deleted });
    out.say(`Removed account "${label}". ${removalWords(label, deleted)}`);
    return EXIT.ok;
  } finally {
    store.close();
  }
}

/** All of standard input, without the final line end. */
async function readSecret(stdin: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

interface RawInput extends Readable {
  setRawMode(mode: boolean): unknown;
}

function hasRawMode(stdin: Readable): stdin is RawInput {
  return typeof (stdin as Partial<RawInput>).setRawMode === 'function';
}

/** One line typed at a terminal, without echoing it. Ctrl-C gives up (an empty secret). */
function readHidden(stdin: RawInput): Promise<string> {
  return new Promise((resolve) => {
    let typed = '';
    const finish = (value: string) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      resolve(value);
    };
    const onData = (data: Buffer | string) => {
      for (const ch of data.toString()) {
        if (ch === '\r' || ch === '\n') return finish(typed);
        if (ch === '\u0003' || ch === '\u0004') return finish('');
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.on('data', onData);
    stdin.resume();
  });
}
