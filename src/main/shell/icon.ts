/**
 * The window and tray icons: files made from build/'s source image by `npm run icons`, under
 * resources/ in the app (inside the asar when packaged). `nativeImage.createFromPath` picks the
 * @2x variant beside each tray file by itself on high-density screens.
 */
import { join } from 'node:path';

export interface IconFiles {
  window: string;
  tray: string;
  /** While an unread near or knocked-out alert waits: the same mark with a red badge. */
  trayWarning: string;
}

export function iconFiles(appPath: string): IconFiles {
  const resources = join(appPath, 'resources');
  return {
    window: join(resources, 'icon.png'),
    tray: join(resources, 'tray', 'tray.png'),
    trayWarning: join(resources, 'tray', 'tray-warning.png'),
  };
}

/** The Windows taskbar overlay while alerts are unread: a 16x16 red dot with a white rim. Inline,
 *  as it is drawn, not made from the app's image. */
export const UNREAD_DOT_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAACXBIWXMAAAsTAAALEwEAmpwYAAABKElEQVR42pVTXY4BQRAeTzwbV9jE4zKuITiEtS/WQQyC3QP4iatYR7BZYx/GU1+ApEepKt3Y1miVfMmk0/XV931d43k3CgByiEAh57kUXkwhaiDlApJkD7rom84AqveaM4gZ3d9GKyn6bYg/3hiiH8JuHUlFN0GkbZNnNIkal8U8LF9f/gPPxCAEpWxqEtSImpvNRgNi2NHGKmcC9LeNfqV1skUJ25Fyfk6bpYePmy9UJEcrPhGUSE/crDsTxK2GthF46p05bVeCTetdExSIwGcLgycsfHa1hawO8Zve3iXEnwBD/LsIUQVZ5WfEcFymqyqbuzA9WbEoocniq6cXaWRb5bRaU35nIqK0CaSMZR9rfLXKBlGF/Fl+pvmV7Ad/po8oKvi3Lh4AB2MsU6wyJWgAAAAASUVORK5CYII=';
