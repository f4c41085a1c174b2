import type { SummaryLine } from './summary-reporter';

type FileTime = Extract<SummaryLine, { kind: 'file' }>;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The per-file timing table `npm run test:times` prints: each project's file count and summed file time, then every
 * file slowest first (its time, of which imports, and its test count). Summed file time is worker time: with two
 * workers the wall time of a project is about half of it.
 */
export function formatTimes(files: readonly FileTime[]): string {
  const byProject = new Map<string, { files: number; ms: number }>();
  for (const f of files) {
    const p = byProject.get(f.project) ?? { files: 0, ms: 0 };
    p.files++;
    p.ms += f.durationMs;
    byProject.set(f.project, p);
  }
  const out = ['Test files by duration (worker time; imports in brackets)'];
  for (const [project, p] of byProject) out.push(`  ${project}: ${p.files} files, ${seconds(p.ms)}`);
  const width = Math.max(...files.map((f) => f.file.length), 10);
  for (const f of [...files].sort((a, b) => b.durationMs - a.durationMs)) {
    out.push(
      `${seconds(f.durationMs).padStart(9)} (${seconds(f.importMs).padStart(7)})  ${f.file.padEnd(width)}  ${f.tests} tests`,
    );
  }
  return out.join('\n');
}
