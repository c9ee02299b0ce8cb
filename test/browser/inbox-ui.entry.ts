// The browser bundle of the test page (bundled by inbox-page.ts): Novu's Inbox UI as a product embeds it.
export { NovuUI } from '@novu/js/ui';
