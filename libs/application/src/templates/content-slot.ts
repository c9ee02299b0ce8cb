/** Where a layout takes the email's body: `{{content}}`, `{{ content }}`. */
export const CONTENT_SLOT = /\{\{\s*content\s*\}\}/g;

export const hasContentSlot = (source: string): boolean => new RegExp(CONTENT_SLOT.source).test(source);
