// Written by npm run messages.
declare const messages: Record<keyof typeof import('../messages/ko.json'), (params?: Record<string, string | number>) => string>;
export default messages;
