import { DomainError } from '#common';

/** A resource's version as an entity tag: its `updatedAt`, quoted, as a GET answers it in `ETag`. */
export const entityTag = (updatedAt: string): string => `"${updatedAt}"`;

/**
 * The `updatedAt` an If-Match header names; none, or `*`, asks for no condition. A list of tags or a weak
 * one is refused (400): a save is conditional on one exact version.
 */
export function ifMatchUpdatedAt(header: string | undefined): Date | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const quoted = /^"([^"]+)"$/.exec(header.trim());
  const updatedAt = quoted ? new Date(quoted[1]) : undefined;
  if (!updatedAt || Number.isNaN(updatedAt.getTime()))
    throw new DomainError(
      'BAD_REQUEST',
      'If-Match must be one ETag: the updatedAt of the version read, in double quotes ("2026-01-31T09:30:00.000Z")',
    );
  return updatedAt;
}
