/**
 * The command line: `npm run --silent cli -- <command> [options]`. See usage.ts for the commands,
 * their output and exit status. `main` takes its streams and environment as arguments, so it
 * can run in-process as well as from index.ts.
 */
import { accountsCommand } from './commands/accounts.js';
import { exportCommand } from './commands/export.js';
import { guardCommand } from './commands/guard.js';
import { ordersCommand, positionsCommand, settlementsCommand } from './commands/local.js';
import { syncCommand } from './commands/sync.js';
import { orderCommand, quoteCommand } from './commands/trading.js';
import { EXIT, Output, reportFailure, type CliIO } from './output.js';
import { USAGE, UsageError } from './usage.js';

export interface Signals {
  /** Resolves when the user asks the command to stop (SIGINT, SIGTERM). */
  wait(): Promise<void>;
}

export async function main(argv: string[], io: CliIO, signals: Signals): Promise<number> {
  const out = new Output(io);
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(USAGE);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  try {
    switch (command) {
      case 'accounts':
        return await accountsCommand(rest, io, out);
      case 'sync':
        return await syncCommand(rest, io, out, signals);
      case 'quote':
        return await quoteCommand(rest, io, out);
      case 'order':
        return await orderCommand(rest, io, out);
      case 'positions':
        return await positionsCommand(rest, io, out);
      case 'orders':
        return await ordersCommand(rest, io, out);
      case 'settlements':
        return await settlementsCommand(rest, io, out);
      case 'export':
        return await exportCommand(rest, io, out);
      case 'guard':
        return await guardCommand(rest, io, out);
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (err) {
    return reportFailure(err, out);
  }
}
