import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const MODULE_SCRIPT = /<script type="module" async(?:="")?>([\s\S]*?)<\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]+)"\/>/g;
const SIDE_EFFECT_IMPORT = /^import "([^"]+)";$/;
const NAMESPACE_IMPORT = /^import \* as (\w+) from "([^"]+)";$/;

/**
 * Rewrites React Router's hydration script so the JavaScript starts loading after the
 * first frame is painted (as the browser's paint timing reports it) instead of competing
 * with the stylesheet for the first paint: the static imports become dynamic ones run
 * after that paint, and the modulepreload hints are added then (in parallel) instead of
 * in <head>. The page is usable before (the form posts without JavaScript) and becomes
 * interactive as soon as the code arrives.
 */
export function deferHydration(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) throw new Error('React Router hydration script not found: has its output format changed?');
  const preloads = [...html.matchAll(MODULE_PRELOAD)].map((match) => match[1]!);
  const sideEffects: string[] = [];
  const namespaces: [string, string][] = [];
  const rest: string[] = [];
  for (const line of script[1]!.split('\n').map((text) => text.trim()).filter(Boolean)) {
    const sideEffect = SIDE_EFFECT_IMPORT.exec(line);
    const namespace = NAMESPACE_IMPORT.exec(line);
    if (sideEffect) sideEffects.push(sideEffect[1]!);
    else if (namespace) namespaces.push([namespace[1]!, namespace[2]!]);
    else if (line.startsWith('import ') && !line.startsWith('import(')) {
      throw new Error(`unexpected import in the hydration script: ${line}`);
    } else rest.push(line);
  }
  const entry = rest.join('\n').match(/import\("([^"]+)"\)/)?.[1];
  if (!entry) throw new Error('React Router client entry import not found: has its output format changed?');
  const sharedChunks = preloads.filter(
    (href) => href !== entry && !sideEffects.includes(href) && !namespaces.some(([, src]) => src === href),
  );
  const deferred = [
    // The frame is on screen once the browser reports its paint; a frame produced is not
    // yet painted, and a download that started then could finish before the first paint,
    // which is what Lighthouse's simulation counts as needed for it. Without Paint Timing,
    // a frame and a task; should the paint never be reported, a frame and a second. Frames
    // wait while the tab is hidden, as the paint does.
    'const afterFirstPaint = (start) => {',
    'let started = false;',
    'const once = () => { if (!started) { started = true; setTimeout(start, 0); } };',
    "const paintTiming = window.PerformanceObserver?.supportedEntryTypes?.includes('paint');",
    'requestAnimationFrame(() => setTimeout(once, paintTiming ? 1000 : 0));',
    "if (paintTiming) new PerformanceObserver((_, observer) => { observer.disconnect(); once(); }).observe({ type: 'paint', buffered: true });",
    '};',
    'afterFirstPaint(async () => {',
    // Each preload hint, each module graph's evaluation and the start of hydration get a
    // task of their own: adding the hints alone took some 50 ms in one task at 1x CPU.
    'const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));',
    `for (const href of ${JSON.stringify(preloads)}) {`,
    "const link = document.createElement('link'); link.rel = 'modulepreload'; link.href = href; document.head.appendChild(link);",
    'await nextTask();',
    '}',
    ...sideEffects.map((src) => `await import(${JSON.stringify(src)});`),
    // The shared chunks (the libraries, the site's code) are evaluated one per task, in the
    // order React Router lists them, before the route modules that import them: one module
    // graph evaluated at once was one long task.
    ...sharedChunks.map((src) => `await nextTask(); await import(${JSON.stringify(src)});`),
    ...namespaces.map(([name, src]) => `await nextTask(); const ${name} = await import(${JSON.stringify(src)});`),
    'await nextTask();',
    ...rest,
    '});',
  ].join('\n');
  return html.replace(MODULE_PRELOAD, '').replace(script[0], `<script type="module">${deferred}</script>`);
}

async function* htmlFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(full);
    else if (entry.name.endsWith('.html')) yield full;
  }
}

export async function deferHydrationInBuild(clientDir: string) {
  for await (const file of htmlFiles(clientDir)) {
    await writeFile(file, deferHydration(await readFile(file, 'utf8')));
  }
}
