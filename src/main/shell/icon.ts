/** The tray and window icon: a 32x32 PNG, inline so the shell needs no resource files. */
export const ICON_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAVUlEQVR42mNgQAJiFV7/6YEZ0AG9LMbpkAF1wEBZDnfEqAOGjANIBaMOINYRZDuAGHWjDhh1wPDOBaPZcNQBow4Y9Nlw+LUHRtuEw9cBo33Dge6eAwBfsKQ/wa3CEgAAAABJRU5ErkJggg==';

/** The tray icon while an unread near or knocked-out alert waits: the same mark with a red
 *  badge and a white "!" in its top-right corner. */
export const WARNING_ICON_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAABGElEQVR42u2XPwrCMBSHewqP4Al6Ci/hCZzr7u7SGzgJHqGzm5OzOjjpUii4SuQrBNKYxNK+tip98IOQvNf35eUfjSLDJsuZktBit1bbQ6b252Mp2vTp8cg2qcTzzUpd85t6FoV6ZJnK07QUbfoYw+cNRGrWGAkvcaxO02lF9DGG6WqIJWdW2D1JKkm1mX34YLoSIgCUltnZs3YBIHyJEQGgnKyvq+w+AHyJIbY1ADucTWYnCQEgYoitDRAyV/k/ARDDEf0PAN8ShNR6CXrfhD6A3o5hCMB3EbnU+CIKATS9ikUBzErUfYxaAdQx33PcG0Cd74ouge03AowAnQIMfgokkv8WQFcaAYYHkPw3bJT8KwD6BjFzvgAhwRpwE9Iq2wAAAABJRU5ErkJggg==';
