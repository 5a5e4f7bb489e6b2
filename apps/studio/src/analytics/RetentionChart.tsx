import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useMessages } from '../i18n/i18n';
import { useNumbers } from './format';
import { analyticsMessages } from './messages';
import styles from './analytics.module.css';
import { TableWrap } from './parts';
import { clock, retentionRuns } from './range';

const HEIGHT = 260;
const REACH = '#4f46e5';
const VIEWS = '#0f766e';
const MARKER = '#64748b';
const BUTTON = '#b45309';
/** Axis steps: whole seconds, whole counts. */
const SECOND_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];
const COUNT_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000];

/** Whether this browser can draw the chart (a test page without canvas gets the numbers alone). */
function canDraw(): boolean {
  if (typeof ResizeObserver === 'undefined') return false;
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}

interface Marker {
  second: number;
  label: string;
  colour: string;
}

/**
 * Reach and views by second of a page's video (uPlot on a canvas), with lines at the button time and
 * at 25/50/75 % of the video. The canvas has a summary for screen readers, the plotted numbers are on
 * the figure (`data-reach`, `data-views`) and in a table of runs (seconds with the same numbers).
 */
export function RetentionChart({
  reach,
  views,
  duration,
  buttonTime,
}: {
  reach: readonly number[];
  views: readonly number[];
  duration: number;
  buttonTime: number;
}) {
  const t = useMessages(analyticsMessages);
  const { count } = useNumbers();
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const [hover, setHover] = useState<number | null>(null);

  const data = useMemo<uPlot.AlignedData>(
    () => [reach.map((_, second) => second), [...reach], [...views]],
    [reach, views],
  );
  const latest = useRef(data);
  // New numbers go to the chart as they come (and to the chart made next, if it is still loading).
  useEffect(() => {
    latest.current = data;
    chart.current?.setData(data);
  }, [data]);

  const markers = useMemo<Marker[]>(() => {
    const list: Marker[] = [25, 50, 75].map((percent) => ({
      second: (duration * percent) / 100,
      label: `${percent}%`,
      colour: MARKER,
    }));
    if (buttonTime <= duration) list.push({ second: buttonTime, label: t('buttonMarker'), colour: BUTTON });
    return list;
  }, [duration, buttonTime, t]);

  const labels = useMemo(() => ({ reach: t('reach'), views: t('views'), second: t('second') }), [t]);

  // The chart is made once per video (and language); new numbers are handed to it as they come.
  useEffect(() => {
    const element = box.current;
    if (!element || !canDraw()) return;
    let cancelled = false;
    let plot: uPlot | null = null;
    const observer = new ResizeObserver(() => {
      if (plot && element.clientWidth > 0) plot.setSize({ width: element.clientWidth, height: HEIGHT });
    });
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      const axis = { stroke: '#475569', grid: { stroke: '#e2e8f0', width: 1 }, ticks: { show: false } };
      const options: uPlot.Options = {
        width: Math.max(element.clientWidth, 200),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false }, points: { size: 6 } },
        scales: {
          x: { time: false, range: () => [0, Math.max(duration - 1, 1)] },
          y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [
          { ...axis, incrs: SECOND_STEPS, values: (_u, splits) => splits.map(clock) },
          { ...axis, incrs: COUNT_STEPS, size: 44, values: (_u, splits) => splits.map((n) => count(n)) },
        ],
        series: [
          { label: labels.second },
          {
            label: labels.reach,
            stroke: REACH,
            width: 2,
            fill: 'rgba(79, 70, 229, 0.10)',
            points: { show: false },
          },
          { label: labels.views, stroke: VIEWS, width: 1.5, dash: [6, 4], points: { show: false } },
        ],
        hooks: {
          draw: [
            (u) => {
              const { ctx } = u;
              const { top, height } = u.bbox;
              const ratio = UPlot.pxRatio;
              ctx.save();
              ctx.font = `${11 * ratio}px system-ui, sans-serif`;
              ctx.lineWidth = ratio;
              ctx.setLineDash([4 * ratio, 4 * ratio]);
              // A label that would run into the one before it goes a line lower.
              let lastEnd = -Infinity;
              let line = 0;
              for (const marker of [...markers].sort((a, b) => a.second - b.second)) {
                const x = Math.round(u.valToPos(marker.second, 'x', true));
                ctx.strokeStyle = marker.colour;
                ctx.beginPath();
                ctx.moveTo(x, top);
                ctx.lineTo(x, top + height);
                ctx.stroke();
                ctx.fillStyle = marker.colour;
                const start = x + 3 * ratio;
                line = start < lastEnd + 4 * ratio ? line + 1 : 0;
                ctx.fillText(marker.label, start, top + (12 + line * 13) * ratio);
                lastEnd = Math.max(lastEnd, start + ctx.measureText(marker.label).width);
              }
              ctx.restore();
            },
          ],
          setCursor: [
            (u) => {
              const index = u.cursor.idx;
              setHover(index ?? null);
            },
          ],
        },
      };
      plot = new UPlot(options, latest.current, element);
      chart.current = plot;
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer.disconnect();
      plot?.destroy();
      chart.current = null;
    };
  }, [duration, markers, labels, count]);

  const runs = useMemo(() => retentionRuns(reach, views), [reach, views]);
  const at = (second: number) => reach[Math.min(Math.max(Math.floor(second), 0), reach.length - 1)] ?? 0;
  const summary = t('chartSummary', {
    length: clock(duration),
    start: count(at(0)),
    button: count(at(buttonTime)),
    buttonTime: clock(buttonTime),
    end: count(at(duration - 1)),
    peak: count(Math.max(0, ...views)),
  });
  const hovered =
    hover === null ? null : { second: hover, reach: reach[hover] ?? 0, views: views[hover] ?? 0 };

  return (
    <figure
      className={styles.chartFigure}
      aria-labelledby={`${id}-caption`}
      data-testid="retention"
      data-reach={reach.join(',')}
      data-views={views.join(',')}
    >
      <figcaption id={`${id}-caption`} className="visually-hidden">
        {t('retentionTitle')}
      </figcaption>
      <div className={styles.chartLegend}>
        <span className={styles.legendItem}>
          <span className={[styles.swatch, styles.swatchReach].join(' ')} aria-hidden="true" />
          {t('reach')}
        </span>
        <span className={styles.legendItem}>
          <span className={[styles.swatch, styles.swatchViews].join(' ')} aria-hidden="true" />
          {t('views')}
        </span>
        <span className={styles.legendItem}>
          <span className={[styles.swatch, styles.swatchButton].join(' ')} aria-hidden="true" />
          {t('buttonAt', { time: clock(buttonTime) })}
        </span>
        <span className={styles.readout} aria-hidden="true">
          {hovered
            ? t('readout', {
                time: clock(hovered.second),
                reach: count(hovered.reach),
                views: count(hovered.views),
              })
            : ' '}
        </span>
      </div>
      <div ref={box} className={styles.chart} role="img" aria-label={summary} />
      <details className={styles.numbers}>
        <summary>{t('numbersBySecond')}</summary>
        <TableWrap label={t('numbersBySecond')}>
          <table className={styles.table}>
            <caption className="visually-hidden">{t('numbersBySecond')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('seconds')}</th>
                <th scope="col" className={styles.numeric}>
                  {t('reach')}
                </th>
                <th scope="col" className={styles.numeric}>
                  {t('views')}
                </th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.from} data-from={run.from} data-to={run.to}>
                  <th scope="row">
                    {run.from === run.to ? clock(run.from) : `${clock(run.from)}–${clock(run.to)}`}
                  </th>
                  <td className={styles.numeric}>{count(run.reach)}</td>
                  <td className={styles.numeric}>{count(run.views)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
    </figure>
  );
}
