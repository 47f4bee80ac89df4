/**
 * Web benchmark (`npm run bench:web`): Lighthouse's mobile configuration (emulated Moto G
 * Power, simulated slow 4G) on Debian's Chromium, on the landing pages as `npm start` serves
 * them (the same build, the bundled API with the values of .env.example, compression as
 * served), and beside them the same prerendered pages with their scripts removed, served by
 * a second API of the same configuration. Runs of the two alternate, so both meet the same
 * moments of this shared machine.
 *
 * Prints Performance, Accessibility, Best Practices, SEO, LCP, CLS, TBT and JavaScript
 * bytes per page, the JavaScript of each page per chunk (raw, gzip, brotli, transferred),
 * and checks the bars of PRODUCT.md (decision 046): Performance ≥ 95, Accessibility 100,
 * CLS ≤ 0.02, an LCP within 1.1 × and a TBT within 50 ms of the page without scripts, and
 * at most 160 kB of JavaScript (gzip) on the first load. Writes bench/results/web-*.json.
 *
 * CPU calibration (decision 009): the default 4x CPU slowdown assumes a fast desktop host.
 * Lighthouse measures the host (benchmarkIndex); Chrome DevTools rates the Moto G Power class
 * at 264. The bars are judged on runs whose slowdown is host index / 264 (between 1 and 4),
 * as DevTools' CPU calibration does; one run with the plain 4x default is reported beside.
 *
 * A run Lighthouse cannot complete (for example CHROME_INTERSTITIAL_ERROR) still returns a
 * report, with a score of 0 and no metrics: it is recorded under `failedRuns`, retried, and
 * left out of the medians. A page with fewer than two valid runs gets no figures.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { freePort } from '@guida/testing/free-port';
import { precompressFile } from '../web/tooling/precompress';
import { CHROMIUM } from '../scripts/lib/debian-packages.mjs';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../scripts/lib/defaults.mjs';
import { ROOT } from '../scripts/lib/output.mjs';
import {
  benchLog,
  isolatedEnv,
  localUrl,
  machineFacts,
  npmStartConfiguration,
  onCleanUp,
  recreateDatabase,
  runBenchmark,
  startService,
  stopServices,
  waitForReady,
  writeResults,
} from './bench-support';

const PAGES = ['/', '/educazione-investimenti', '/trading-old'];
/** Lighthouse varies run to run; the median of these is reported (the bars ask for at least 5). */
const RUNS = 5;
/** A failed run (no metrics) is retried this many times per page and site, then it is judged on what succeeded. */
const RETRIES = 2;
/** Fewer valid runs than this and the page has no figures: the bars are missed for lack of data. */
const MIN_VALID_RUNS = 2;
/** Chrome DevTools' benchmark score of a low-tier phone (Moto G Power 2022). */
const TARGET_DEVICE_INDEX = 264;
const BARS = { performance: 95, accessibility: 100, cls: 0.02 };
/**
 * The budget of a landing page against the same page without scripts (decision 046):
 * first-load JavaScript as the build gzips it (1 kB = 1,000 bytes), blocking time added,
 * LCP ratio.
 */
const BUDGET = { jsGzipBytes: 160_000, tbtOverScriptlessMs: 50, lcpRatio: 1.1 };
/**
 * A blank HTML page (no CSS, no script) served with the script-less copy: its blocking
 * time is what Lighthouse's simulation gives on this host whatever a page does.
 */
const BLANK_PAGE = '/pagina-vuota-di-controllo';
const BUILD_DIR = join(ROOT, 'web', 'build', 'client');
const BENCH_DATABASE = 'guida_bench_web';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const log = benchLog('web');

/* ------------------------------ the two sites ------------------------------ */

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? htmlFiles(join(dir, entry.name)) : entry.name.endsWith('.html') ? [join(dir, entry.name)] : [],
  );
}

/**
 * A copy of the build whose pages have no scripts (and no module preloads): what the
 * visitor sees before any JavaScript runs, compressed as the build compresses its pages.
 */
async function scriptlessCopy(): Promise<string> {
  const dir = mkdtempSync(join(os.tmpdir(), 'guida-bench-web-'));
  onCleanUp(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(BUILD_DIR, dir, { recursive: true });
  for (const file of htmlFiles(dir)) {
    const html = readFileSync(file, 'utf8')
      .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
      .replace(/<link rel="modulepreload"[^>]*>/g, '');
    if (/<script\b/.test(html)) throw new Error(`a script is left in ${file}`);
    writeFileSync(file, html);
    rmSync(`${file}.br`, { force: true });
    rmSync(`${file}.gz`, { force: true });
    await precompressFile(file);
  }
  const blank = join(dir, BLANK_PAGE.slice(1), 'index.html');
  mkdirSync(join(dir, BLANK_PAGE.slice(1)));
  writeFileSync(
    blank,
    '<!doctype html><html lang="it"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
      '<title>Pagina vuota</title></head><body><h1>Pagina vuota</h1><p>Nessuno stile e nessuno script.</p></body></html>',
  );
  await precompressFile(blank);
  return dir;
}

/**
 * The bundled API as `npm start` runs it (the values of .env.example), changed only in where
 * it listens and keeps its data, and in the build it serves.
 */
async function startSite(name: string, databaseUrl: string, buildDir: string) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  startService(
    name,
    'api/dist/server.js',
    isolatedEnv({
      ...npmStartConfiguration(),
      PORT: String(port),
      PUBLIC_BASE_URL: url,
      DATABASE_URL: databaseUrl,
      REDIS_URL: localUrl(process.env.REDIS_URL || DEFAULT_REDIS_URL, 'REDIS_URL'),
      REDIS_KEY_PREFIX: `bench-web-${name}-${process.pid}`,
      WEB_BUILD_DIR: buildDir,
    }),
  );
  await waitForReady(url);
  return url;
}

/* -------------------------------- Lighthouse ------------------------------- */

interface ScriptRequest {
  path: string;
  transferSize: number;
  resourceSize: number;
}

interface RunResult {
  cpuSlowdown: number;
  hostIndex: number;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  fcpMs: number;
  jsBytes: number;
  totalBytes: number;
  /** The element Lighthouse took as the largest contentful paint. */
  lcpElement: string | null;
  scripts: ScriptRequest[];
  /** Main-thread tasks over 50 ms (simulated), with the script Lighthouse attributes each to. */
  longTasks: { source: string; ms: number }[];
}

interface FailedRun {
  failed: true;
  code: string;
  message: string;
  hostIndex: number | null;
}

type Throttling = Record<string, number>;

/** The middle value; with an even count, the mean of the two middle ones. */
function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** One Lighthouse run; a run Lighthouse could not complete is returned as a FailedRun. */
async function audit(url: string, port: number, throttling?: Throttling): Promise<(RunResult & { throttling: Throttling }) | FailedRun> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    ...(throttling ? { throttling } : {}),
  });
  const failed = (code: string, message: string, hostIndex: number | null): FailedRun => {
    log(`  run failed: ${code} (${message.split('\n')[0]})`);
    return { failed: true, code, message, hostIndex };
  };
  if (!result) return failed('NO_RESULT', `Lighthouse returned nothing for ${url}`, null);
  const { runtimeError, categories, audits, environment, configSettings } = result.lhr;
  const hostIndex = Math.round(environment.benchmarkIndex);
  if (runtimeError) return failed(runtimeError.code, runtimeError.message, hostIndex);
  if (categories.performance?.score == null) return failed('NO_SCORE', `Lighthouse gave no performance score for ${url}`, hostIndex);
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  const summary = (audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] })?.items;
  const bytesOf = (type: string) => summary?.find((item) => item.resourceType === type)?.transferSize ?? 0;
  const requests =
    (audits['network-requests']?.details as { items?: { url: string; resourceType?: string; transferSize?: number; resourceSize?: number }[] })
      ?.items ?? [];
  // Lighthouse 13 names the LCP element in the LCP breakdown insight: a list whose node item is it.
  const lcpDetails = audits['lcp-breakdown-insight']?.details as
    | { items?: { type?: string; selector?: string; nodeLabel?: string }[] }
    | undefined;
  const lcpNode = lcpDetails?.items?.find((item) => item.type === 'node');
  const used = configSettings.throttling as Throttling;
  return {
    throttling: used,
    cpuSlowdown: Math.round((used.cpuSlowdownMultiplier ?? 4) * 100) / 100,
    hostIndex,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: Math.round(numeric('largest-contentful-paint')),
    cls: Math.round(numeric('cumulative-layout-shift') * 1000) / 1000,
    tbtMs: Math.round(numeric('total-blocking-time')),
    fcpMs: Math.round(numeric('first-contentful-paint')),
    jsBytes: bytesOf('script'),
    totalBytes: bytesOf('total'),
    lcpElement: lcpNode ? `${lcpNode.selector ?? '?'} "${(lcpNode.nodeLabel ?? '').slice(0, 60)}"` : null,
    longTasks: ((audits['long-tasks']?.details as { items?: { url?: string; duration?: number }[] } | undefined)?.items ?? []).map(
      (task) => ({ source: taskSource(task.url), ms: Math.round(task.duration ?? 0) }),
    ),
    scripts: requests
      .filter((request) => request.resourceType === 'Script')
      .map((request) => ({
        path: new URL(request.url).pathname,
        transferSize: request.transferSize ?? 0,
        resourceSize: request.resourceSize ?? 0,
      })),
  };
}

/** A long task's source: the path of the script it ran, else what the page itself did. */
function taskSource(url: string | undefined) {
  if (!url || !/^https?:/.test(url)) return url || 'the page';
  const { pathname } = new URL(url);
  return pathname.startsWith('/assets/') ? pathname : `the page (${pathname})`;
}

function withoutThrottling({ throttling: _used, ...run }: RunResult & { throttling: Throttling }): RunResult {
  return run;
}

type Figures = Omit<RunResult, 'scripts' | 'lcpElement' | 'longTasks'>;

interface SiteFigures {
  runs: RunResult[];
  failedRuns: FailedRun[];
  /** Medians of the valid runs; null with fewer than MIN_VALID_RUNS. */
  median: Figures | null;
}

function medians(runs: RunResult[]): Figures | null {
  if (runs.length < MIN_VALID_RUNS) return null;
  const pick = (key: keyof Figures) => median(runs.map((run) => run[key]));
  return {
    cpuSlowdown: Math.round(pick('cpuSlowdown') * 100) / 100,
    hostIndex: Math.round(pick('hostIndex')),
    performance: pick('performance'),
    accessibility: pick('accessibility'),
    bestPractices: pick('bestPractices'),
    seo: pick('seo'),
    lcpMs: Math.round(pick('lcpMs')),
    cls: Math.round(pick('cls') * 1000) / 1000,
    tbtMs: Math.round(pick('tbtMs')),
    fcpMs: Math.round(pick('fcpMs')),
    jsBytes: Math.round(pick('jsBytes')),
    totalBytes: Math.round(pick('totalBytes')),
  };
}

/* ---------------------------------- report --------------------------------- */

/** The sizes of a built file: raw, and its precompressed variants (the file itself when too small to have them). */
function builtSizes(path: string) {
  const file = join(BUILD_DIR, path);
  if (!existsSync(file)) return null;
  const raw = statSync(file).size;
  const variant = (suffix: string) => (existsSync(`${file}${suffix}`) ? statSync(`${file}${suffix}`).size : raw);
  return { raw, gzip: variant('.gz'), brotli: variant('.br') };
}

const kB = (bytes: number) => (bytes / 1000).toFixed(1);

function printTable(title: string, rows: [string, SiteFigures][]) {
  console.log(`\n${title}`);
  console.log('page                        perf  a11y  best  seo    LCP ms  CLS     TBT ms  JS kB  CPU x  host index  valid/failed');
  for (const [path, site] of rows) {
    const counts = `${site.runs.length}/${site.failedRuns.length}`.padStart(12);
    const page = site.median;
    if (!page) {
      console.log(`${path.padEnd(27)} too few valid runs (fewer than ${MIN_VALID_RUNS}): no figures  ${counts}`);
      continue;
    }
    console.log(
      `${path.padEnd(27)} ${String(page.performance).padStart(4)} ${String(page.accessibility).padStart(5)} ` +
        `${String(page.bestPractices).padStart(5)} ${String(page.seo).padStart(4)} ${String(page.lcpMs).padStart(9)}  ` +
        `${page.cls.toFixed(3).padEnd(6)} ${String(page.tbtMs).padStart(6)} ${kB(page.jsBytes).padStart(6)}` +
        `  ${page.cpuSlowdown.toFixed(2).padStart(5)}  ${String(page.hostIndex).padStart(10)}${counts}`,
    );
  }
}

/** The JavaScript a page loaded (first valid run), per chunk: built sizes and bytes transferred. */
function chunkTable(run: RunResult | undefined) {
  return (run?.scripts ?? []).map((script) => ({ ...script, built: builtSizes(script.path) }));
}

/* ----------------------------------- run ----------------------------------- */

await runBenchmark('web', 45, async () => {
  const startedAt = new Date();
  log(`recreating database ${BENCH_DATABASE}`);
  const databaseUrl = await recreateDatabase(localUrl(process.env.DATABASE_URL || DEFAULT_DATABASE_URL, 'DATABASE_URL'), BENCH_DATABASE);
  log('copying the build without its scripts');
  const scriptless = await scriptlessCopy();
  const [siteUrl, scriptlessUrl] = await Promise.all([
    startSite('api', databaseUrl, 'web/build/client'),
    startSite('api-without-scripts', databaseUrl, scriptless),
  ]);
  onCleanUp(stopServices);
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  onCleanUp(() => chrome.kill());

  // The first Lighthouse run of a fresh Chromium is slower whatever the page: not reported.
  log('warm-up run (not reported)');
  await audit(`${siteUrl}${PAGES[0]}`, chrome.port);

  const pages: Record<string, { site: SiteFigures; scriptless: SiteFigures; plain: RunResult | FailedRun; chunks: ReturnType<typeof chunkTable> }> = {};
  for (const path of PAGES) {
    log(`Lighthouse ${path} with the plain mobile defaults (4x CPU slowdown)`);
    const plain = await audit(`${siteUrl}${path}`, chrome.port);
    const defaults = 'failed' in plain ? undefined : plain.throttling;
    let hostIndex = plain.hostIndex ?? TARGET_DEVICE_INDEX * 4;
    const figures = { site: { runs: [] as RunResult[], failedRuns: [] as FailedRun[] }, scriptless: { runs: [] as RunResult[], failedRuns: [] as FailedRun[] } };
    // Alternate the two sites, each run calibrated on the host index the previous run measured.
    for (let round = 0; round < RUNS + RETRIES; round += 1) {
      for (const [name, url] of [['site', siteUrl], ['scriptless', scriptlessUrl]] as const) {
        const target = figures[name];
        if (target.runs.length >= RUNS || target.failedRuns.length > RETRIES) continue;
        const cpuSlowdownMultiplier = Math.min(4, Math.max(1, hostIndex / TARGET_DEVICE_INDEX));
        log(
          `Lighthouse ${path} ${name === 'site' ? 'as served' : 'without scripts'} (run ${target.runs.length + target.failedRuns.length + 1}, ` +
            `host index ${hostIndex}, CPU slowdown ${cpuSlowdownMultiplier.toFixed(2)}x)`,
        );
        const result = await audit(`${url}${path}`, chrome.port, { ...defaults, cpuSlowdownMultiplier });
        if ('failed' in result) target.failedRuns.push(result);
        else target.runs.push(withoutThrottling(result));
        hostIndex = result.hostIndex ?? hostIndex;
      }
    }
    pages[path] = {
      site: { ...figures.site, median: medians(figures.site.runs) },
      scriptless: { ...figures.scriptless, median: medians(figures.scriptless.runs) },
      plain: 'failed' in plain ? plain : withoutThrottling(plain),
      chunks: chunkTable(figures.site.runs[0]),
    };
  }

  const blank: RunResult[] = [];
  for (let run = 1; blank.length < RUNS && run <= RUNS + RETRIES; run += 1) {
    log(`Lighthouse ${BLANK_PAGE}, a blank page without CSS or scripts (run ${run})`);
    const result = await audit(`${scriptlessUrl}${BLANK_PAGE}`, chrome.port);
    if (!('failed' in result)) blank.push(withoutThrottling(result));
  }
  const blankPage = { runs: blank, median: medians(blank) };

  const entries = Object.entries(pages);
  console.log(
    `\nLighthouse mobile (Moto G Power, slow 4G), CPU slowdown calibrated to the host, median of the valid runs ` +
      `(${RUNS} wanted, failed runs excluded) · Chromium at ${CHROMIUM} · ${os.cpus().length} CPUs`,
  );
  printTable('As `npm start` serves it (default configuration)', entries.map(([path, page]) => [path, page.site]));
  printTable('The same pages without their scripts', entries.map(([path, page]) => [path, page.scriptless]));

  console.log('\nJavaScript of each page as served (first valid run): built sizes and bytes transferred (with headers)');
  for (const [path, page] of entries) {
    console.log(`${path}`);
    console.log('  chunk                                          raw B   gzip B  brotli B  transferred B');
    for (const chunk of page.chunks) {
      const built = chunk.built;
      console.log(
        `  ${chunk.path.padEnd(44)} ${String(built?.raw ?? '?').padStart(7)} ${String(built?.gzip ?? '?').padStart(8)} ` +
          `${String(built?.brotli ?? '?').padStart(9)} ${String(chunk.transferSize).padStart(14)}`,
      );
    }
    const total = (key: 'raw' | 'gzip' | 'brotli') => page.chunks.reduce((sum, chunk) => sum + (chunk.built?.[key] ?? 0), 0);
    const transferred = page.chunks.reduce((sum, chunk) => sum + chunk.transferSize, 0);
    console.log(
      `  ${`total (${page.chunks.length} requests)`.padEnd(44)} ${String(total('raw')).padStart(7)} ${String(total('gzip')).padStart(8)} ` +
        `${String(total('brotli')).padStart(9)} ${String(transferred).padStart(14)}`,
    );
  }

  console.log('\nLargest contentful paint per valid run: time and element');
  for (const [path, page] of entries) {
    for (const [name, site] of [['as served', page.site], ['without scripts', page.scriptless]] as const) {
      for (const run of site.runs) console.log(`  ${path} ${name}: ${run.lcpMs} ms ${run.lcpElement ?? '(no element)'}`);
    }
  }

  console.log('\nTasks over 50 ms per valid run (simulated duration and source; blocking time is each one over 50 ms)');
  for (const [path, page] of entries) {
    for (const [name, site] of [['as served', page.site], ['without scripts', page.scriptless]] as const) {
      for (const run of site.runs) {
        const tasks = run.longTasks.map((task) => `${task.ms} ms ${task.source}`).join(', ');
        console.log(`  ${path} ${name}: TBT ${run.tbtMs} ms · ${tasks || 'none'}`);
      }
    }
  }

  const failures = entries.flatMap(([path, page]) =>
    [...page.site.failedRuns, ...page.scriptless.failedRuns].map((run) => `${path}: ${run.code}`),
  );
  if (failures.length > 0) console.log(`\nFailed runs (excluded from the medians): ${failures.join(', ')}`);
  console.log('\nThe pages as served with the plain 4x default (one run each; host index in brackets)');
  for (const [path, { plain }] of entries) {
    console.log(
      'failed' in plain
        ? `${path.padEnd(27)} failed: ${plain.code}`
        : `${path.padEnd(27)} perf ${plain.performance} · LCP ${plain.lcpMs} ms · TBT ${plain.tbtMs} ms · CLS ${plain.cls.toFixed(3)} · JS ${kB(plain.jsBytes)} kB (${plain.hostIndex})`,
    );
  }

  const checks: { kind: 'budget' | 'bar'; bar: string; page: string; value: string; pass: boolean }[] = [];
  for (const [path, { site, scriptless }] of entries) {
    const page = site.median;
    const without = scriptless.median;
    const noData = (runs: number) => `no data (${runs} valid run(s))`;
    const ratio = page && without ? page.lcpMs / without.lcpMs : null;
    const chunks = pages[path]!.chunks;
    const firstLoadGzip = chunks.reduce((sum, chunk) => sum + (chunk.built?.gzip ?? 0), 0);
    checks.push(
      {
        kind: 'budget',
        bar: `first-load JavaScript ≤ ${kB(BUDGET.jsGzipBytes)} kB gzip`,
        page: path,
        value: chunks.length ? `${kB(firstLoadGzip)} kB in ${chunks.length} files` : noData(site.runs.length),
        pass: chunks.length > 0 && chunks.every((chunk) => chunk.built) && firstLoadGzip <= BUDGET.jsGzipBytes,
      },
      {
        kind: 'budget',
        bar: `TBT ≤ without scripts + ${BUDGET.tbtOverScriptlessMs} ms`,
        page: path,
        value: page && without ? `${page.tbtMs} ms (without scripts: ${without.tbtMs} ms)` : noData(Math.min(site.runs.length, scriptless.runs.length)),
        pass: page !== null && without !== null && page.tbtMs <= without.tbtMs + BUDGET.tbtOverScriptlessMs,
      },
      {
        kind: 'budget',
        bar: `LCP ≤ ${BUDGET.lcpRatio} × without scripts`,
        page: path,
        value: ratio === null ? noData(Math.min(site.runs.length, scriptless.runs.length)) : `${page!.lcpMs} / ${without!.lcpMs} ms = ${ratio.toFixed(2)}`,
        pass: ratio !== null && ratio <= BUDGET.lcpRatio,
      },
      {
        kind: 'bar',
        bar: `Performance ≥ ${BARS.performance}`,
        page: path,
        value: page ? String(page.performance) : noData(site.runs.length),
        pass: page !== null && page.performance >= BARS.performance,
      },
      {
        kind: 'bar',
        bar: `Accessibility ${BARS.accessibility}`,
        page: path,
        value: page ? String(page.accessibility) : noData(site.runs.length),
        pass: page !== null && page.accessibility >= BARS.accessibility,
      },
      {
        kind: 'bar',
        bar: `CLS ≤ ${BARS.cls}`,
        page: path,
        value: page ? page.cls.toFixed(3) : noData(site.runs.length),
        pass: page !== null && page.cls <= BARS.cls,
      },
    );
  }
  console.log(
    `\nA blank page (no CSS, no script), plain 4x: TBT ${blank.map((run) => `${run.tbtMs} ms`).join(' / ') || 'no data'}` +
      ` (median ${blankPage.median?.tbtMs ?? '?'} ms): the blocking time this host gives any page`,
  );
  console.log('\nBudget against the pages without scripts (calibrated runs, as served)');
  for (const check of checks.filter((c) => c.kind === 'budget')) {
    console.log(`  ${check.pass ? 'PASS' : 'MISS'}  ${check.page} ${check.bar}: ${check.value}`);
  }
  console.log('\nBars (calibrated runs, as served)');
  for (const check of checks.filter((c) => c.kind === 'bar')) {
    console.log(`  ${check.pass ? 'PASS' : 'MISS'}  ${check.page} ${check.bar}: ${check.value}`);
  }

  const file = writeResults('web', startedAt, {
    benchmark: 'web',
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: machineFacts(),
    settings: {
      pages: PAGES,
      runs: RUNS,
      retriesAfterFailedRuns: RETRIES,
      minValidRuns: MIN_VALID_RUNS,
      served: 'the build npm start builds, by the bundled API with the values of .env.example (changed only in port, database, Redis prefix and PUBLIC_BASE_URL)',
      withoutScripts: 'the same build with every <script> and modulepreload removed from its pages, served by a second API of the same configuration',
      lighthouse: 'mobile configuration, simulated throttling, CPU slowdown = host benchmarkIndex / 264 (1x to 4x); the two sites alternate',
      targetDeviceIndex: TARGET_DEVICE_INDEX,
      budget: BUDGET,
      bars: BARS,
    },
    pages,
    blankPage,
    checks,
  });
  console.log(`\nResults: ${file} (and bench/results/web-latest.json)`);
});
