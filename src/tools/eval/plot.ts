/**
 * SVG plot of focus curves: harvest rate and target recall against pages
 * fetched, one line per run, two panels side by side sharing one legend.
 * Rendered headless by Vega (no canvas, no browser).
 */
import * as vega from 'vega';
import type { CurvePoint } from './metrics.ts';

/** One run's curve, as drawn. */
export interface PlotSeries {
  /** the run's name, shown in the legend */
  name: string;
  points: Pick<CurvePoint, 'n' | 'harvest' | 'recall'>[];
}

/** Options of plotCurves(). */
export interface PlotOptions {
  /** title above both panels */
  title?: string;
  /** at most this many points per run are drawn (default 500) */
  maxPoints?: number;
  /** panel size in pixels (default 360 x 260) */
  width?: number;
  height?: number;
}

/** At most `max` points of `points`, evenly spaced, keeping the first and the last. */
export function downsample<T>(points: T[], max: number): T[] {
  if (points.length <= max) return points;
  if (max < 2) return points.slice(-1);
  const out: T[] = [];
  const step = (points.length - 1) / (max - 1);
  for (let i = 0; i < max; i++) out.push(points[Math.round(i * step)]);
  return out;
}

function panel(field: 'harvest' | 'recall', title: string, axisTitle: string, width: number, height: number): vega.GroupMark {
  return {
    type: 'group',
    name: `${field}-panel`,
    title: { text: title, anchor: 'start' },
    encode: { update: { width: { value: width }, height: { value: height } } },
    scales: [{ name: 'y', type: 'linear', domain: [0, 1], range: [height, 0], zero: true }],
    axes: [
      { orient: 'bottom', scale: 'x', title: 'pages fetched', grid: true, tickCount: 6 },
      { orient: 'left', scale: 'y', title: axisTitle, format: '.0%', grid: true, tickCount: 5 },
    ],
    marks: [
      {
        type: 'group',
        from: { facet: { name: `${field}-series`, data: 'points', groupby: 'run' } },
        marks: [
          {
            type: 'line',
            from: { data: `${field}-series` },
            sort: { field: 'datum.n' },
            encode: {
              enter: {
                x: { scale: 'x', field: 'n' },
                y: { scale: 'y', field },
                stroke: { scale: 'color', field: 'run' },
                strokeWidth: { value: 2 },
              },
            },
          },
        ],
      },
    ],
  };
}

/**
 * Render the runs' curves as one SVG document (a string): left panel
 * harvest rate, right panel target recall, both against pages fetched.
 */
export async function plotCurves(series: PlotSeries[], opts: PlotOptions = {}): Promise<string> {
  const maxPoints = opts.maxPoints ?? 500;
  const width = opts.width ?? 360;
  const height = opts.height ?? 260;
  const values: { run: string; n: number; harvest: number; recall: number }[] = [];
  for (const s of series) {
    for (const p of downsample(s.points, maxPoints)) values.push({ run: s.name, n: p.n, harvest: p.harvest, recall: p.recall });
  }
  const spec: vega.Spec = {
    $schema: 'https://vega.github.io/schema/vega/v6.json',
    background: 'white',
    padding: 12,
    autosize: 'pad',
    ...(opts.title ? { title: { text: opts.title } } : {}),
    layout: { columns: 2, padding: 36, bounds: 'full', align: 'each' },
    data: [{ name: 'points', values }],
    scales: [
      { name: 'x', type: 'linear', domain: { data: 'points', field: 'n' }, range: [0, width], zero: true, nice: true },
      { name: 'color', type: 'ordinal', domain: series.map((s) => s.name), range: 'category' },
    ],
    legends: [{ stroke: 'color', title: 'run', orient: 'right', symbolType: 'stroke' }],
    marks: [
      panel('harvest', 'Harvest rate', 'harvest rate (relevant / pages)', width, height),
      panel('recall', 'Target recall', 'recall (targets found / all)', width, height),
    ],
  };
  const view = new vega.View(vega.parse(spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
