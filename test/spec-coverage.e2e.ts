import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';

/*
 * The spec fields this project covers are checked in: test/spec-fields.json (spec item → its field names,
 * both sorted). The table of docs/spec-coverage.md is tested against that list, so a plain clone needs nothing
 * beside it. Where the shared API specification sits beside the repository (../shared/spec/api-spec.md), one more
 * test parses it and requires the checked-in list to equal what it finds. After a change to the spec, regenerate
 * the list (it needs the spec beside the repository) and update the docs/spec-coverage.md table to match:
 *
 *   UPDATE_SPEC_FIELDS=1 npm test -- --selectProjects e2e --testPathPatterns spec-coverage
 */
const ROOT = process.cwd();
const SPEC_PATH = resolve(ROOT, '../shared/spec/api-spec.md');
const SPEC_FIELDS_PATH = join(ROOT, 'test/spec-fields.json');
const COVERAGE_PATH = join(ROOT, 'docs/spec-coverage.md');
const REGENERATE = 'UPDATE_SPEC_FIELDS=1 npm test -- --selectProjects e2e --testPathPatterns spec-coverage';

type FieldsByItem = Map<string, Set<string>>;

// Words that open a note rather than name a field in the spec's inline lists ("all required", "written as ...").
const NOT_FIELD_NAMES = new Set(['all', 'each', 'both', 'written', 'required', 'min', 'enum', 'optional']);
const LABEL_RENAMES: Record<string, string> = { 'Item fields': 'Notification list item', 'Job fields': 'Job' };

function add(fields: FieldsByItem, item: string, names: Iterable<string>): void {
  const set = fields.get(item) ?? new Set<string>();
  for (const name of names) set.add(name);
  fields.set(item, set);
}

/** Splits on commas and semicolons that are not inside brackets. */
function splitTopLevel(text: string): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if ('({['.includes(char)) depth++;
    if (')}]'.includes(char)) depth--;
    if (depth === 0 && (char === ',' || char === ';')) {
      pieces.push(current);
      current = '';
    } else current += char;
  }
  return [...pieces, current].map((piece) => piece.trim()).filter(Boolean);
}

/** The nested field list a piece describes: `{a, b}`, `(object: a, b)`, `(object with a, b)`, `(step shape with a)`. */
function nestedList(rest: string): string | undefined {
  const inner = /^\((.*)\)$/s.exec(rest.trim())?.[1] ?? rest;
  const words = /(?:object:|\bobject with|\bshape with)\s+(.*)$/s.exec(inner);
  const braces = /\{(.*)\}/s.exec(inner);
  // The outer form wins: `(object: a, timed {b})` lists a and timed; timed's braces are its own.
  if (words && (!braces || words.index < braces.index)) return words[1];
  return braces?.[1];
}

/** Field names of an inline list; nested lists give dotted names (`subscriber.firstName`). */
function listFields(text: string, nest: boolean, prefix = ''): string[] {
  const names: string[] = [];
  for (const piece of splitTopLevel(text)) {
    const match = /^([A-Za-z_$][\w$-]*)\??(.*)$/s.exec(piece);
    if (!match) continue;
    const [, name, rest] = match;
    // A nested list ends where its enumeration of values starts ("textAlign, enum center, left, right").
    if (prefix && name === 'enum') break;
    if (NOT_FIELD_NAMES.has(name)) continue;
    names.push(prefix + name);
    const nested = nest ? nestedList(rest) : undefined;
    if (nested) names.push(...listFields(nested, true, `${prefix}${name}.`));
  }
  return names;
}

function tableRows(lines: string[], start: number): string[][] {
  const rows: string[][] = [];
  for (let i = start; i < lines.length && lines[i].startsWith('|'); i++) {
    rows.push(
      lines[i]
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows.filter((row) => !row.every((cell) => /^:?-+:?$/.test(cell)));
}

/** Every field the spec names, by spec item (resource, operation, or `All operations` / `Limits`). */
function specFields(spec: string): FieldsByItem {
  const fields: FieldsByItem = new Map();
  const lines = spec.split('\n');
  let section = '';
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('## ')) [section, heading] = [line.slice(3).trim(), ''];
    else if (line.startsWith('### ')) {
      heading = line.slice(4).split(' (')[0].split(' and ')[0].trim();
      // An operation is a spec item even when it takes no parameters.
      if (section === 'Endpoints') add(fields, heading, []);
    } else if (line.startsWith('|') && !lines[i - 1].startsWith('|')) {
      const [header, ...rows] = tableRows(lines, i);
      if (header[0] === 'Field' || header[0] === 'Parameter')
        add(
          fields,
          heading,
          rows.map((row) => row[0]).flatMap((cell) => listFields(cell, false)),
        );
      if (header[0] === 'Limit')
        add(
          fields,
          'Limits',
          rows.map((row) => row[0]),
        );
      if (header[0] === 'Form')
        for (const row of rows) add(fields, `Step metadata: ${row[0]}`, ['type', ...listFields(row[2], false)]);
      if (header[0] === 'Type') for (const row of rows) add(fields, row[0], listFields(row[1], false));
    } else if (section === 'Endpoints' || section === 'Authentication') {
      for (const header of line.matchAll(/header `([\w-]+)/g)) add(fields, 'All operations', [header[1]]);
      const parameters = /^- (?:Path|Query|Body \(JSON[^)]*\)): (.*)$/.exec(line)?.[1];
      if (parameters && heading) add(fields, heading, listFields(parameters.replace(/\. No body\.$/, ''), false));
      if (line.startsWith('- A recipient object of subscriber form has:'))
        add(fields, 'Trigger recipient', listFields(line.split(':').slice(1).join(':'), true));
    } else if (section === 'Resources and their fields') {
      const credentials = /^IntegrationCredentials \(all optional\)\. (.*)$/.exec(line)?.[1];
      if (credentials) {
        for (const group of credentials.matchAll(/(?:String|Boolean|Object) fields?: ([^.]*)\./g))
          add(fields, 'IntegrationCredentials', listFields(group[1], false));
        continue;
      }
      const inline = /^([A-Z][A-Za-z ]*?)(?: \(all optional\))?: (.+)$/.exec(line);
      if (!inline || inline[2].endsWith('not shown.') || /^(Conventions|Allowed values)/.test(inline[1])) continue;
      add(fields, LABEL_RENAMES[inline[1]] ?? inline[1], listFields(inline[2], true));
    }
  }
  return fields;
}

interface CoverageRow {
  item: string;
  fields: string[];
  shownBy: string;
}

/** The rows of the table whose first column is `spec item`. */
function coverageRows(document: string): CoverageRow[] {
  const lines = document.split('\n');
  const start = lines.findIndex((line) => /^\|\s*spec item\s*\|/.test(line));
  if (start === -1) throw new Error(`${COVERAGE_PATH} has no table with a "spec item" column`);
  const [, ...rows] = tableRows(lines, start);
  return rows.map(([item, fields, , shownBy]) => ({
    item: item.replace(/`/g, '').trim(),
    fields: [...fields.matchAll(/`([^`]+)`/g)].map((match) => match[1]),
    shownBy,
  }));
}

/** The list as test/spec-fields.json holds it: items sorted, each item's field names sorted. */
function sortedList(fields: FieldsByItem): Record<string, string[]> {
  const items = [...fields.keys()].sort();
  return Object.fromEntries(items.map((item) => [item, [...fields.get(item)!].sort()]));
}

async function writeSpecFields(fields: FieldsByItem): Promise<void> {
  const options = { ...(await resolveConfig(SPEC_FIELDS_PATH)), filepath: SPEC_FIELDS_PATH };
  writeFileSync(SPEC_FIELDS_PATH, await format(JSON.stringify(sortedList(fields), null, 2), options));
}

function readSpecFieldsFile(): Record<string, string[]> {
  if (!existsSync(SPEC_FIELDS_PATH))
    throw new Error(`${SPEC_FIELDS_PATH} is missing: regenerate it with ${REGENERATE}`);
  const list: unknown = JSON.parse(readFileSync(SPEC_FIELDS_PATH, 'utf8'));
  const valid =
    typeof list === 'object' &&
    list !== null &&
    !Array.isArray(list) &&
    Object.values(list).every((names) => Array.isArray(names) && names.every((name) => typeof name === 'string'));
  if (!valid) throw new Error(`${SPEC_FIELDS_PATH} must map each spec item to an array of field names`);
  return list as Record<string, string[]>;
}

/** How the checked-in list differs from the one the spec gives, one line per difference. */
function listDifferences(checkedIn: Record<string, string[]>, fromSpec: Record<string, string[]>): string[] {
  const pairs = (list: Record<string, string[]>) =>
    Object.entries(list).flatMap(([item, names]) => (names.length ? names : ['']).map((name) => `${item}: ${name}`));
  const [checked, parsed] = [pairs(checkedIn), pairs(fromSpec)];
  const differences = [
    ...parsed.filter((pair) => !checked.includes(pair)).map((pair) => `in the spec, not in the list: ${pair}`),
    ...checked.filter((pair) => !parsed.includes(pair)).map((pair) => `in the list, not in the spec: ${pair}`),
  ];
  // Same items and fields but another order, or a name twice: the file is not what regenerating writes.
  if (differences.length === 0 && JSON.stringify(checkedIn) !== JSON.stringify(fromSpec))
    differences.push('same items and fields, but not sorted as regenerating writes them (or a name is repeated)');
  return differences;
}

const specPresent = existsSync(SPEC_PATH);
if (process.env.UPDATE_SPEC_FIELDS) {
  if (!specPresent) throw new Error(`UPDATE_SPEC_FIELDS is set, but the API specification is missing at ${SPEC_PATH}`);
  await writeSpecFields(specFields(readFileSync(SPEC_PATH, 'utf8')));
}
const checkedInList = readSpecFieldsFile();

describe('test/spec-fields.json, the checked-in list of spec fields', () => {
  it('holds the spec items and their fields', () => {
    expect(checkedInList['Subscriber']).toContain('subscriberId');
    expect(checkedInList['Job']).toContain('digest.timed.cronExpression');
    expect(checkedInList['IntegrationCredentials']).toContain('tlsOptions');
    expect(checkedInList['10. Get notifications']).toContain('topicKey');
    expect(checkedInList['All operations']).toContain('idempotency-key');
  });
});

// Only where the shared specification sits beside the repository (CI); a plain clone has no ../shared.
if (specPresent) {
  describe('test/spec-fields.json compared with the shared API specification (../shared/spec/api-spec.md)', () => {
    const parsed = specFields(readFileSync(SPEC_PATH, 'utf8'));

    it('the parser finds the spec items and their fields', () => {
      expect(parsed.get('Subscriber')).toContain('subscriberId');
      expect(parsed.get('Job')).toContain('digest.timed.cronExpression');
      expect(parsed.get('IntegrationCredentials')).toContain('tlsOptions');
      expect(parsed.get('10. Get notifications')).toContain('topicKey');
      expect(parsed.get('All operations')).toContain('idempotency-key');
    });

    it('the checked-in list equals the fields the shared spec has', () => {
      const differences = listDifferences(checkedInList, sortedList(parsed));
      if (differences.length > 0)
        throw new Error(
          `test/spec-fields.json differs from ${SPEC_PATH}:\n  ${differences.join('\n  ')}\n` +
            `Regenerate test/spec-fields.json with: ${REGENERATE}\n` +
            'then update the docs/spec-coverage.md table to match.',
        );
    });
  });
}

describe('docs/spec-coverage.md covers every field of the API specification (test/spec-fields.json)', () => {
  const spec: FieldsByItem = new Map();
  for (const [item, names] of Object.entries(checkedInList)) add(spec, item, names);
  const rows = coverageRows(readFileSync(COVERAGE_PATH, 'utf8'));

  it('names every spec field in a row of its spec item', () => {
    const listed = new Map<string, Set<string>>();
    for (const row of rows) add(listed, row.item, row.fields);
    const missing = [...spec].flatMap(([item, names]) =>
      [...names].filter((name) => !listed.get(item)?.has(name)).map((name) => `${item}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('names only spec items and their fields', () => {
    const unknown = rows.flatMap((row) =>
      spec.has(row.item)
        ? row.fields.filter((name) => !spec.get(row.item)!.has(name)).map((name) => `${row.item}: ${name}`)
        : [`unknown spec item: ${row.item}`],
    );
    expect(unknown).toEqual([]);
  });

  it('says for every row what shows it, and every test file it names exists', () => {
    expect(rows.filter((row) => row.shownBy === '').map((row) => row.item)).toEqual([]);
    const named = rows.flatMap((row) =>
      [...row.shownBy.matchAll(/[\w./-]+\.(?:e2e|engine|spec)\.ts/g)].map((match) => match[0]),
    );
    expect(named.length).toBeGreaterThan(0);
    expect([...new Set(named)].filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });
});
