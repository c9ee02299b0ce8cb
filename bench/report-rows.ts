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
