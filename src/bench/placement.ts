/**
 * The Workloads figure: the tab's start → first full frame and the RSS after it, with OBJECTS
 * control-plane objects placed over three workload clusters (placement-fill.ts), each copy read.
 * Three fresh processes in turn (placement-measure.ts): the frame figure is their median, the
 * RSS their highest.
 */
import { distPath } from '../paths.js';
import { runMeasuringChild } from './child.js';
import type { PlacementFleet } from './placement-fill.js';
import type { PlacementResult } from './placement-measure.js';
import { figure, median, medianProcess, mib, ms, note, percentile, progress } from './util.js';

export const WORKLOADS_OBJECTS = 5000;
export const WORKLOADS_FRAME_TARGET_MS = 3000;
export const WORKLOADS_RSS_TARGET = 200 * 1024 * 1024;
export const WORKLOADS_KEY_TARGET_MS = 100;
const CHILD = distPath('bench', 'placement-child.js');
const RUNS = 3;

export async function placementFigure(fleet: PlacementFleet): Promise<void> {
  const runs: PlacementResult[] = [];
  for (let i = 1; i <= RUNS; i++) {
    progress(`workloads: starting the dashboard on the Workloads tab in a fresh process (${i}/${RUNS})`);
    runs.push(
      await runMeasuringChild<PlacementResult>(CHILD, ['--kubeconfig', fleet.sandbox.kubeconfig, '--objects', String(fleet.objects)], {
        FLEETDECK_FLEET_FILE: fleet.fleetFile,
      }),
    );
  }
  const { median: r, highestRss: rss } = medianProcess(runs);
  const label = `${fleet.objects} control-plane objects over ${fleet.clusters} workload clusters, each copy read`;
  figure(
    `Workloads tab (${label}): process start → first full frame (${r.rows} rows), median of ${RUNS} processes`,
    `${ms(r.frameMs)} (read in the store at ${ms(r.storeMs)})`,
    `≤ ${WORKLOADS_FRAME_TARGET_MS / 1000} s`,
    r.frameMs <= WORKLOADS_FRAME_TARGET_MS,
  );
  figure(
    `Workloads tab (${label}): RSS of the dashboard process after the first frame, highest of ${RUNS}`,
    mib(rss),
    `≤ ${mib(WORKLOADS_RSS_TARGET)}`,
    rss <= WORKLOADS_RSS_TARGET,
  );
  const scroll = runs.flatMap((x) => x.scrollMs);
  figure(
    `Workloads tab (${label}): G / g to the frame showing the last / first row, p95 of ${scroll.length} keys over ${RUNS} processes`,
    `${ms(percentile(scroll, 95))} (median ${ms(median(scroll))}, slowest ${[...scroll]
      .sort((x, y) => y - x)
      .slice(0, 3)
      .map(ms)
      .join(', ')})`,
    `≤ ${WORKLOADS_KEY_TARGET_MS} ms`,
    scroll.length > 0 && percentile(scroll, 95) <= WORKLOADS_KEY_TARGET_MS,
  );
  note(
    `each process: first frame at ${runs.map((x) => ms(x.frameMs)).join(', ')}; RSS ${runs.map((x) => mib(x.rssAfterFrame)).join(', ')}`,
  );
  note(`5 s later: RSS ${runs.map((x) => mib(x.rssAfter5s)).join(', ')}; the header then: ${r.header}`);
}
