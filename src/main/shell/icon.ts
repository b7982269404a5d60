/** The tray and window icon: a 32x32 PNG, inline so the shell needs no resource files. */
export const ICON_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAVUlEQVR42mNgQAJiFV7/6YEZ0AG9LMbpkAF1wEBZDnfEqAOGjANIBaMOINYRZDuAGHWjDhh1wPDOBaPZcNQBow4Y9Nlw+LUHRtuEw9cBo33Dge6eAwBfsKQ/wa3CEgAAAABJRU5ErkJggg==';
