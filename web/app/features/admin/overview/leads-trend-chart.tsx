import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatDay, formatNumber } from '../ui/admin-format';

const HEIGHT = 220;
const BAR_COLOR = '#047857';
const AXIS_COLOR = '#334155';
const GRID_COLOR = '#e2e8f0';

interface DayCount {
  day: string;
  leads: number;
}

/** "25/11" of a YYYY-MM-DD day. */
const shortDay = (day: string | undefined) => (day ? `${day.slice(8, 10)}/${day.slice(5, 7)}` : '');

/** What the chart shows, in words: its accessible name. */
function trendSummary(days: readonly DayCount[]) {
  if (days.length === 0) return 'Nessun dato.';
  const total = days.reduce((sum, row) => sum + row.leads, 0);
  const best = days.reduce((top, row) => (row.leads > top.leads ? row : top), days[0]!);
  const today = days.at(-1)!;
  return (
    `Lead per giorno dal ${formatDay(days[0]!.day)} al ${formatDay(today.day)}: ${formatNumber(total)} in totale` +
    (total > 0 ? `, massimo ${formatNumber(best.leads)} il ${formatDay(best.day)}` : '') +
    `, oggi ${formatNumber(today.leads)}.`
  );
}

const chartData = (days: readonly DayCount[]): uPlot.AlignedData => [days.map((_, index) => index), days.map((row) => row.leads)];

/**
 * Leads per Italian day as bars, drawn by uPlot on a canvas (only the admin chunk loads
 * it). The canvas is an image named by its summary; the table beside it has the figures.
 */
export function LeadsTrendChart({ days }: { days: readonly DayCount[] }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  // The axis labels read the latest days, not those of the first render.
  const latest = useRef(days);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          x: { time: false, range: (_self, min, max) => [min - 0.5, max + 0.5] },
          y: { range: (_self, _min, max) => [0, Math.max(1, max)] },
        },
        axes: [
          {
            stroke: AXIS_COLOR,
            grid: { show: false },
            values: (_self, splits) => splits.map((index) => (Number.isInteger(index) ? shortDay(latest.current[index]?.day) : '')),
          },
          {
            stroke: AXIS_COLOR,
            grid: { stroke: GRID_COLOR },
            values: (_self, splits) => splits.map((value) => (Number.isInteger(value) ? formatNumber(value) : '')),
          },
        ],
        series: [
          {},
          { label: 'Lead', stroke: BAR_COLOR, fill: BAR_COLOR, points: { show: false }, paths: uPlot.paths.bars?.({ size: [0.7, 40] }) },
        ],
      },
      chartData(latest.current),
      element,
    );
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, []);

  useEffect(() => {
    latest.current = days;
    plot.current?.setData(chartData(days));
  }, [days]);

  return <div ref={box} role="img" aria-label={trendSummary(days)} className="w-full overflow-hidden" />;
}
