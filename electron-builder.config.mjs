// @ts-check
// How Betdesk is packaged: `npm run dist` (build/dist.mjs) hands this file to electron-builder.
// Option names follow electron-builder's own schema (node_modules/app-builder-lib/scheme.json);
// test/build/builder-config.test.ts validates this object against it, so a typo fails CI.

/** Who ships Betdesk: the Windows publisher, the deb maintainer and vendor, the macOS copyright. */
const publisher = { name: 'Betdesk', email: 'support@betdesk.app' };

/** @type {import('electron-builder').Configuration} */
const config = {
  appId: 'app.betdesk.desktop',
  productName: 'Betdesk',
  copyright: 'Copyright © 2026 Betdesk. All rights reserved.',
  // package.json says `"license": "UNLICENSED"`: Betdesk is proprietary and grants no licence.
  // The packaged copy names the publisher with its address (the deb and NSIS metadata read it).
  // desktopName: the .desktop file Electron names to Linux launchers, for the unread badge.
  extraMetadata: { author: publisher, desktopName: 'betdesk.desktop' },
  directories: { buildResources: 'build', output: 'dist' },
  // Only what the app runs: electron-vite's output, the icons the shell loads, package.json.
  // electron-builder adds the production dependencies from node_modules by itself (never the
  // dev dependencies). Not src/, test/, bench/, docs/ or build/ (build/electron-native holds a
  // development-only better-sqlite3, and a package rebuilds its own).
  files: ['out/**', 'resources/**', 'package.json', '!out/**/*.map'],
  asar: true,
  // Native modules load from a real file, never from inside the archive.
  asarUnpack: ['**/node_modules/better-sqlite3/**/*.node', '**/node_modules/keytar/**/*.node'],
  // Rebuild better-sqlite3 and keytar for Electron's ABI (through @electron/rebuild), so the
  // packaged app needs no `nativeBinding`: that route serves `npm start` in development only.
  npmRebuild: true,
  nativeRebuilder: 'sequential',
  fileAssociations: [],
  publish: null,
  artifactName: '${productName}-${version}-${os}-${arch}.${ext}',

  // Fuses are flipped in the Electron binary itself, so no environment or flag can undo them.
  electronFuses: {
    // ELECTRON_RUN_AS_NODE would turn the signed app into a general-purpose Node.
    runAsNode: false,
    // Chromium's cookie store encrypted with the OS keychain, as Chrome does.
    enableCookieEncryption: true,
    // NODE_OPTIONS, --inspect and SIGUSR1 could inject code into the main process.
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    // app.asar is checked against the hash baked into the executable (macOS and Windows).
    enableEmbeddedAsarIntegrityValidation: true,
    // Never run app code from a loose folder placed beside (or instead of) app.asar.
    onlyLoadAppFromAsar: true,
    // The window loads from the app:// protocol; file:// pages get no more than a browser's.
    grantFileProtocolExtraPrivileges: false,
    loadBrowserProcessSpecificV8Snapshot: false,
    // Flipping a fuse breaks the binary's ad-hoc signature; an unsigned arm64 app would not start.
    resetAdHocDarwinSignature: true,
  },

  linux: {
    target: [
      { target: 'AppImage', arch: ['x64'] },
      { target: 'deb', arch: ['x64'] },
    ],
    icon: 'build/icons',
    category: 'Finance',
    executableName: 'betdesk',
    synopsis: 'Desktop app for a sports-betting exchange',
    maintainer: `${publisher.name} <${publisher.email}>`,
    vendor: publisher.name,
  },
  deb: {
    // electron-builder's defaults, restated because the list replaces them: libsecret-1-0 is
    // what keytar needs to reach the Secret Service where account secrets live.
    depends: [
      'libgtk-3-0',
      'libnotify4',
      'libnss3',
      'libxss1',
      'libxtst6',
      'xdg-utils',
      'libatspi2.0-0',
      'libuuid1',
      'libsecret-1-0',
    ],
  },
  mac: {
    target: [{ target: 'dmg', arch: ['x64', 'arm64'] }],
    icon: 'build/icon.icns',
    category: 'public.app-category.finance',
    hardenedRuntime: true,
    darkModeSupport: true,
  },
  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
    icon: 'build/icon.ico',
  },
  nsis: {
    // An assisted installer, for the current user only: no administrator rights asked.
    oneClick: false,
    perMachine: false,
    allowElevation: false,
    allowToChangeInstallationDirectory: true,
  },
};

export default config;
