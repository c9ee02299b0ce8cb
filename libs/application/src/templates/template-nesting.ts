/**
 * How deep a template may nest blocks ({% if %}, {% for %}...) or brackets and parentheses inside one
 * tag. LiquidJS parses and renders by recursion: a few thousand levels exhaust the stack, and V8 can end
 * the whole process (not throw) when it has to compile a regular expression with no stack left. So depth
 * is measured by a flat, linear scan before Liquid sees the source.
 */
export const MAX_TEMPLATE_NESTING = 100;

const BLOCK_TAGS = new Set(['if', 'unless', 'for', 'case', 'capture', 'tablerow', 'comment', 'raw']);

/** The error message for a source that nests deeper than the limit, or undefined. */
export function nestingError(source: string): string | undefined {
  let blocks = 0;
  for (const { tag, body } of markupOf(source)) {
    if (bracketDepth(body) > MAX_TEMPLATE_NESTING) return tooDeep();
    if (tag === undefined) continue;
    // {% liquid %} holds one tag per line, without delimiters.
    const names = tag === 'liquid' ? body.split('\n').map(firstWord) : [tag];
    for (const name of names) {
      if (BLOCK_TAGS.has(name)) blocks++;
      else if (name.startsWith('end') && BLOCK_TAGS.has(name.slice(3))) blocks--;
      if (blocks > MAX_TEMPLATE_NESTING) return tooDeep();
    }
  }
  return undefined;
}

/** Each `{% tag body %}` and `{{ body }}` in order; an unclosed one ends the scan (Liquid refuses it). */
function* markupOf(source: string): Generator<{ tag?: string; body: string }> {
  let at = 0;
  for (;;) {
    const open = source.indexOf('{', at);
    if (open < 0) return;
    const kind = source[open + 1];
    if (kind !== '%' && kind !== '{') {
      at = open + 1;
      continue;
    }
    const close = source.indexOf(kind === '%' ? '%}' : '}}', open + 2);
    if (close < 0) return;
    const inner = source.slice(open + 2, close).replace(/^-/, '');
    if (kind === '{') yield { body: inner };
    else {
      const tag = firstWord(inner);
      yield { tag, body: inner.trimStart().slice(tag.length) };
    }
    at = close + 2;
  }
}

function firstWord(text: string): string {
  return /^\s*(\w*)/.exec(text)![1];
}

function bracketDepth(markup: string): number {
  let depth = 0;
  let deepest = 0;
  for (const char of markup) {
    if (char === '(' || char === '[') deepest = Math.max(deepest, ++depth);
    else if (char === ')' || char === ']') depth--;
  }
  return deepest;
}

function tooDeep(): string {
  return `nesting depth limit exceeded (${MAX_TEMPLATE_NESTING} levels)`;
}
