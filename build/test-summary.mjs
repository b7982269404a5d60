// Prints one plain closing line for the suites `npm test` ran: "tests: N passed, N failed, N skipped",
// and names every skipped test with its reason.
//
// A test file that failed with no failed test (its beforeAll threw, or it did not load) did not
// run its tests: vitest reports them as skipped. They count as failed here, and the file is named.
//
// A skip hides a test that did not run, so only one is expected: the Electron spec, where no
// Electron binary is installed (it prints why). Any other skip, such as the keychain tests on a
// machine without a Secret Service, fails the run in CI (CI or BETDESK_CI set: .ci/run sets it);
// on a developer's machine it is listed with what to install, and the exit code is left alone.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

/** Specs that may skip, with the reason they print. */
const MAY_SKIP = ['test/e2e/electron.spec.ts'];

let passed = 0;
let failed = 0;
/** @type {{ where: string, name: string, reason: string }[]} */
const skipped = [];
/** @type {{ where: string, notRun: number, message: string }[]} */
const brokenFiles = [];

const vitest = 'test-results/vitest.json';
if (existsSync(vitest)) {
  const r = JSON.parse(readFileSync(vitest, 'utf8'));
  passed += r.numPassedTests ?? 0;
  failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTests ?? 0);
  for (const file of r.testResults ?? []) {
    const where = relative(process.cwd(), file.name);
    const tests = file.assertionResults ?? [];
    const notRun = tests.filter((t) => ['pending', 'skipped', 'todo'].includes(t.status));
    if (file.status === 'failed' && !tests.some((t) => t.status === 'failed')) {
      brokenFiles.push({ where, notRun: notRun.length, message: file.message ?? '' });
      failed += Math.max(1, notRun.length);
      continue;
    }
    for (const t of notRun) skipped.push({ where, name: t.fullName, reason: '' });
  }
}

const playwright = 'test-results/playwright.json';
if (existsSync(playwright)) {
  const r = JSON.parse(readFileSync(playwright, 'utf8'));
  const s = r.stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'skipped') continue;
        const reason = (t.annotations ?? []).find((a) => a.type === 'skip')?.description ?? '';
        skipped.push({ where: `test/e2e/${spec.file}`, name: spec.title, reason });
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of r.suites ?? []) walk(suite);
}

for (const f of brokenFiles) {
  const why = f.message === '' ? 'its set-up (beforeAll) failed' : f.message.split('\n')[0];
  console.log(`FAILED BEFORE ITS TESTS: ${f.where} (${why}); ${f.notRun} test(s) did not run`);
}
const unexpected = skipped.filter((t) => !MAY_SKIP.includes(t.where));
for (const t of skipped) {
  const mark = unexpected.includes(t) ? 'UNEXPECTED SKIP' : 'skipped';
  console.log(`${mark}: ${t.where} > ${t.name}${t.reason ? ` (${t.reason})` : ''}`);
}
const strict = Boolean(process.env.CI || process.env.BETDESK_CI);
if (unexpected.length > 0) {
  const keychain = unexpected.some((t) => /keychain|accounts/i.test(`${t.where} ${t.name}`));
  console.log(
    [
      `${unexpected.length} test(s) did not run, and only the Electron spec may skip.`,
      keychain
        ? 'The keychain tests need a Secret Service: install dbus (dbus-run-session) and ' +
          'gnome-keyring (Debian: apt-get install dbus-x11 gnome-keyring libsecret-1-dev); ' +
          '`npm test` then runs them in a private keyring of its own.'
        : 'Remove the skip, or make the test run here.',
      strict
        ? 'In CI this fails the run.'
        : 'Outside CI this is a warning; in CI it fails the run.',
    ].join('\n'),
  );
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped.length} skipped`);
process.exit(failed > 0 || passed === 0 || (strict && unexpected.length > 0) ? 1 : 0);
