/**
 * Electron's entry point (electron-vite builds it to out/main/index.js). The services come from
 * the composition root in src/main/root; the shell only hosts them.
 */
import { createServices } from '../root/services.js';
import { runShell } from './app.js';

runShell(createServices).catch((err: unknown) => {
  console.error('Betdesk: the shell failed to start:', err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
