import { median } from './bench-support';
interface BatchFigures {
  megabytesPerSecond: number[];
  rssRiseMb: number[];
}

/** One line of packages/kit-tests/bench/uploads.ts. */
interface UploadsResult {
  description: string;
  fileBytes: number;
  uploads: number;
  chunkBytes: number;
  runs: number;
  kit: { first: BatchFigures; warm: BatchFigures };
  bare: { first: BatchFigures; warm: BatchFigures };
  cleaningAlone: { rssRiseMb: number[]; wallMs: number[] };
  ratios: number[];
  ratioMedian: number;
  ratioCeilings: number[];
  rssAboveIdleMb: number[];
  cleaningProcesses?: number;
  cleaningMemoryMb?: number;
  cleaningAtOnce?: number;
  floorRatios?: number[];
  cleaningCpuOverFloor?: number[];
  smallPhoto?: { description: string; fileBytes: number; kitSeconds: number[]; kitRanks: number[]; bareRanks: number[] };
  scanBomb?: {
    description: string;
    fileBytes: number;
    photosSecondsWithout: number[];
    photosSecondsWith: number[];
    bombAnswers: number[];
    bombSeconds: number[];
  };
}

/**
 * BENCHMARKS.md's rows of the upload suite, one set per kind of file: the kit server's RSS at its peak above itself
 * idle (the highest of the runs), its throughput beside a bare @tus/server's, one cleaning alone, their floor; and for
 * a photo, the ten's time with a scan bomb beside them and without.
 */
export function uploadsRows(result: Record<string, unknown>) {
  const r = result as unknown as UploadsResult;
  const megabytes = (r.fileBytes / 1024 / 1024).toFixed(1);
  const where = `Uploads, ${r.uploads} at once of ${megabytes} MB, ${r.description} (tus-js-client, ${r.chunkBytes / 1024 / 1024} MB chunks)`;
  const runs = (list: number[], unit = '') => `${r.runs} runs: ${list.map((each) => `${each}${unit}`).join(' / ')}`;
  const highest = Math.max(...r.rssAboveIdleMb);
  const pool = r.cleaningProcesses === undefined ? 'one after the other' : `${r.cleaningAtOnce ?? r.cleaningProcesses} at a time`;
  const small = r.smallPhoto;
  const floorRows = r.floorRatios
    ? [
        {
          figure: `${where}: throughput, kit / its floor (the bare server's time and the ${r.uploads} cleaned ${pool}, each as fast as one alone), warm servers`,
          value: `${median(r.floorRatios)} (median); ${runs(r.floorRatios)}`,
          target: '',
        },
      ]
    : [];
  const cpuRows = r.cleaningCpuOverFloor
    ? [
        {
          figure: `${where}: cleaning's CPU per file (the kit's server and pool per upload, less the bare server's) / one cleaning alone, the same sharp pipeline in one process`,
          value: `${median(r.cleaningCpuOverFloor)} (median); ${runs(r.cleaningCpuOverFloor)}`,
          target: '≤ 1.2',
          met: median(r.cleaningCpuOverFloor) <= 1.2,
        },
      ]
    : [];
  const smallRows = small
    ? [
        {
          figure: `${where}: a ${small.description} (${(small.fileBytes / 1024).toFixed(0)} KB) sent by an eleventh task once the ${r.uploads}' bytes are in, warm servers: its answer's rank among the ${r.uploads + 1} and its time from the batch's start`,
          value: `rank ${small.kitRanks.join(' / ')} (bare server: ${small.bareRanks.join(' / ')}); ${runs(small.kitSeconds, ' s')}`,
          target: `< ${r.uploads + 1}`,
          met: Math.max(...small.kitRanks) < r.uploads + 1,
        },
      ]
    : [];
  const bomb = r.scanBomb;
  const bombRows = bomb
    ? [
        {
          figure: `${where}: the same ${r.uploads} beside a ${bomb.description} (${(bomb.fileBytes / 1024).toFixed(0)} KB) sent by another task, warm servers: time until the last of the ${r.uploads} is answered, with the bomb / without; the bomb's answer`,
          value: `${median(bomb.photosSecondsWith)} / ${median(bomb.photosSecondsWithout)} s (medians); ${runs(bomb.photosSecondsWith, ' s')} with; the bomb answered ${[...new Set(bomb.bombAnswers)].join(', ')} after ${bomb.bombSeconds.join(' / ')} s`,
          target: '≤ 3 s more',
          met: median(bomb.photosSecondsWith) - median(bomb.photosSecondsWithout) <= 3,
        },
      ]
    : [];
  return [
    {
      figure: `${where}: server RSS at its peak above the idle server, its cleaning processes included, over a first and a next ${r.uploads}`,
      value: `${highest} MB, the highest of ${runs(r.rssAboveIdleMb, ' MB')}; the next ${r.uploads} alone ${r.kit.warm.rssRiseMb.join(' / ')} MB`,
      target: '< 64 MB',
      met: highest < 64,
    },
    {
      figure: `${where}: throughput, kit / bare @tus/server (FileStore, same disk, same run), warm servers, until the last file is answered`,
      value: `${r.ratioMedian} (${median(r.kit.warm.megabytesPerSecond)} / ${median(r.bare.warm.megabytesPerSecond)} MB/s, medians); ratios of the ${runs(r.ratios)}`,
      target: '≥ 0.5',
      met: r.ratioMedian >= 0.5,
    },
    {
      figure: `${where}: one file cleaned alone, in a process of its own: RSS rise, time; the ratio's ceiling with ${r.uploads} cleaned ${pool}`,
      value: `+${median(r.cleaningAlone.rssRiseMb)} MB, ${median(r.cleaningAlone.wallMs)} ms (medians); ceiling ${median(r.ratioCeilings)}`,
      target: '',
    },
    ...floorRows,
    ...cpuRows,
    ...smallRows,
    ...bombRows,
  ];
}
