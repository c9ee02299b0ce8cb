/**
 * Lower case, every run of characters outside a-z0-9 becomes one dash, no dash at either end.
 * WorkflowRepository computes the same slug in SQL to find a workflow by the slug of its name:
 * change both together.
 */
export function slugify(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
