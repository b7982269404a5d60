/** The command line's usage text and the error that prints it. */

export const USAGE_LINE = 'Usage: npm run --silent cli -- <command> [options]';

export const USAGE = `${USAGE_LINE}

Commands:
  accounts add --label L --base-url U --api-key K   add an account; the API secret is read
                                                    from standard input (kept in the keychain);
                                                    --keep-unchecked keeps it when its exchange
                                                    cannot be checked
  accounts list                                     one JSON line per account
  accounts remove --label L [--yes]                 the account, all Betdesk keeps of it (said
                                                    with counts) and its keychain entry; with
                                                    armed guardian rules only with --yes
  sync [--once] [--resync]                          keep the local store in sync (until Ctrl-C),
                                                    or one pass with --once; the account's
                                                    guardians act meanwhile (docs/guardians.md);
                                                    --resync reads the whole history again (or
                                                    carries on one left unfinished), a progress
                                                    line per page on standard error, then one
                                                    pass and exit as --once
  quote --contract C --outcome O --side BUY|SELL --qty Q --unit BASE|QUOTE [--boost B]
  order <quote options> [--type MARKET|FOK] [--client-order-id ID]
                                                    place and wait for the final status
  positions                                         open positions, from the local store
  orders [--status S]                               orders, from the local store
  settlements [--type T]                            finished bets, from the local store
  export settlements --out FILE [--from T] [--to T] [--type T] [--league L] [--contract C]
         [--team T] [--bom] [--no-formula-guard]    CSV of the local store's settlements
  export orders --out FILE [--from T] [--to T] [--status S[,S...]] [--side BUY|SELL]
         [--contract C] [--team T] [--bom] [--no-formula-guard]
                                                    CSV of the local store's orders
                                                    (T: ISO date or ms; --bom starts the file
                                                    with a UTF-8 byte order mark;
                                                    --no-formula-guard leaves cells starting
                                                    with = + - @ as they are)
  guard list [--all]                                the account's armed rules and how far each
                                                    is from firing (--all: every account's)
  guard add <contract> <outcome> --kind K [--percent P | --price X | --minutes N]
            [--share S] [--confirm K] [--now]       arm a rule on a position (K: knockout,
                                                    stop_loss, take_profit, trailing_stop,
                                                    time_exit; S: % of it to close, default
                                                    100; --confirm: fresh observations in a
                                                    row before it fires, default 1; a rule
                                                    that would fire at once on the figures
                                                    now is refused unless --now)
  guard remove <ruleId> | <contract> <outcome>      disarm one rule, or every rule of a position
  guard pause | guard resume                        hold every rule of every account, or stop
                                                    holding them
  guard log [--event E] [--kind K] [--rule ID] [--contract C] [--from T] [--to T]
            [--csv [--out FILE] [--bom] [--no-formula-guard]]
                                                    the guardian log, newest first; --csv
                                                    writes the app's CSV export (oldest first)
                                                    to FILE, else to standard output

Options for every command:
  --account LABEL   the account to use (default: BETDESK_API_KEY + BETDESK_API_SECRET when set,
                    else BETDESK_ACCOUNT, else the only account)
  --base-url URL    the exchange (default: the account's; with environment credentials
                    BETDESK_BASE_URL or http://127.0.0.1:8787)
  --db FILE         the local store (default: betdesk.sqlite in $BETDESK_DATA_DIR, else the
                    app's data folder: Linux $XDG_DATA_HOME/betdesk (~/.local/share/betdesk),
                    macOS ~/Library/Application Support/Betdesk, Windows %APPDATA%\\Betdesk)
  -h, --help        this text

Output: JSON on standard output (one object, or one per line for lists); messages on
standard error. Exit status: 0 done, 1 failed, 2 usage error, 3 the exchange refused (code and
message printed), 4 outcome unknown (the exchange could not be reached or did not answer).
`;

/** A mistake in the command line: exit status 2 with the message and the usage line. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
