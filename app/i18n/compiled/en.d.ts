// Written by npm run messages.
declare const messages: import('../i18n').Catalog;
export default messages;
