import { cpuBreakdown, type CpuUsage } from './cpu-usage.js';

/** A result table row and its ratio to ceilings, shared by the report's sections. */
export interface Target {
  op: '>=' | '<=';
  value: number;
}

export interface Row {
  section: string;
  metric: string;
  value?: number;
  unit: string;
  target?: Target;
  /** value ÷ ceiling, for each ceiling that bounds this result. */
  ratios?: { ceiling: string; value?: number }[];
  note?: string;
}

export function ceilingRatios(value: number | undefined, entries: [string, number | undefined][]): Row['ratios'] {
  return entries.map(([ceiling, bound]) => ({
    ceiling,
    value: value !== undefined && bound ? value / bound : undefined,
  }));
}

/** How busy the machine's cores were during a scenario, each process's share, and its CPU per unit of work. */
export function cpuRow(
  section: string,
  metric: string,
  cpu: CpuUsage | undefined,
  per?: { units: number; unit: string },
): Row[] {
  if (!cpu) return [];
  const breakdown = cpuBreakdown(cpu, per?.units);
  return [
    {
      section,
      metric,
      value: cpu.busy * 100,
      unit: `% of ${cpu.cores} cores`,
      note: per ? `of the machine (CPU ms per ${per.unit}): ${breakdown}` : `of the machine: ${breakdown}`,
    },
  ];
}
