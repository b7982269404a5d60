/**
 * Types the component tests use beside the DOM's: a stylesheet imported for its effect (the
 * app's theme, so axe sees its colours), and the Playwright provider's CDP session.
 */
/// <reference types="@vitest/browser-playwright" />
declare module '*.css';
