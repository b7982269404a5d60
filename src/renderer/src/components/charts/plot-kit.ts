/**
 * What every uPlot chart here shares (History's P&L, a position's price): the theme it follows,
 * its axes drawn in the theme's CSS variables, and a build a frame after the screen shows, so
 * the rows around a chart never wait for it. Types only from uPlot: the library itself stays in
 * the chunk of the chart that draws.
 */
import type uPlot from 'uplot';

/** Follows the OS theme: `set` now and on each change; returns the function that stops. */
export function followScheme(set: (dark: boolean) => void): () => void {
  const scheme = matchMedia('(prefers-color-scheme: dark)');
  set(scheme.matches);
  const follow = () => set(scheme.matches);
  scheme.addEventListener('change', follow);
  return () => scheme.removeEventListener('change', follow);
}

/** The theme's colours as `el` sees them, and the axis look drawn in them. */
export function themeOf(el: HTMLElement): {
  color: (name: string) => string;
  axis: () => uPlot.Axis;
} {
  const css = getComputedStyle(el);
  const color = (name: string) => css.getPropertyValue(name).trim();
  const axis = (): uPlot.Axis => ({
    stroke: color('--muted'),
    grid: { stroke: color('--border'), width: 1 },
    ticks: { stroke: color('--border'), width: 1 },
    font: '11px system-ui, sans-serif',
  });
  return { color, axis };
}

/** The width a chart takes in `el`: all of it, never under 200 px. */
export function plotWidth(el: HTMLElement): number {
  return Math.max(el.clientWidth, 200);
}

/**
 * Builds the plot from `make` a frame from now, at `height` and following `el`'s width; the
 * returned function (an effect's teardown) stops the build or destroys the plot.
 */
export function mountPlot(
  el: HTMLElement,
  height: number,
  make: (width: number) => uPlot,
  onPlot: (plot: uPlot | null) => void = () => {},
): () => void {
  let built: { plot: uPlot; resize: ResizeObserver } | null = null;
  const frame = requestAnimationFrame(() => {
    const plot = make(plotWidth(el));
    const resize = new ResizeObserver(() => plot.setSize({ width: plotWidth(el), height }));
    resize.observe(el);
    built = { plot, resize };
    onPlot(plot);
  });
  return () => {
    cancelAnimationFrame(frame);
    built?.resize.disconnect();
    built?.plot.destroy();
    onPlot(null);
  };
}
