// Written by npm run messages.
declare const messages: import('../../i18n').Messages<keyof typeof import('../../messages/ko/faq.json')>;
export default messages;
