/** Support: the logs folder and the diagnostics a user pastes into a support email. */
import Type, { type Static } from 'typebox';
import { Closed, Count, NoInput, Nullable } from './common.js';

export const SupportFolders = Closed({
  logs: Nullable(Type.String({ description: 'The logs folder; null when no log file is kept.' })),
  data: Type.String({ description: 'The folder of the store and other state.' }),
});
export type SupportFolders = Static<typeof SupportFolders>;

export const Diagnostics = Closed({
  text: Type.String({
    description:
      'Plain text: versions, OS, folders, settings, accounts and sync without secrets, the last errors.',
  }),
  bytes: Count('The size of `text` in UTF-8.'),
  errors: Count('How many recent warnings and errors it lists.'),
});
export type Diagnostics = Static<typeof Diagnostics>;

export const LogsFolderOpened = Closed({
  path: Nullable(Type.String({ description: 'The logs folder; null when no log file is kept.' })),
  opened: Type.Boolean(),
  error: Nullable(Type.String({ description: 'Why it could not be opened, as a sentence.' })),
});
export type LogsFolderOpened = Static<typeof LogsFolderOpened>;

/** Calls of help and support. (contract.ts joins every feature's calls.) */
export const supportCalls = {
  'support:folders': { input: NoInput, output: SupportFolders },
  'support:diagnostics': { input: NoInput, output: Diagnostics },
  'logs:open': { input: NoInput, output: LogsFolderOpened },
} as const;
