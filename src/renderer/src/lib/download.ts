/**
 * The browser host's downloads: the page follows a same-origin path with an <a download>, and
 * the host streams the file into the browser's own downloads. The file is never in the page.
 */
export function startDownload(path: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = path;
  a.download = fileName;
  a.rel = 'noopener';
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
}
