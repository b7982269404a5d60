/** Entry point of `npm run --silent cli -- <command>`: runs main() on this process's streams. */
import { main } from './main.js';

const stop = new Promise<void>((resolve) => {
  process.once('SIGINT', resolve);
  process.once('SIGTERM', resolve);
});

const code = await main(
  process.argv.slice(2),
  { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env },
  { wait: () => stop },
);
// Let stdout drain, then end: nothing else should keep the process up.
process.exitCode = code;
process.stdout.write('', () => process.exit(code));
