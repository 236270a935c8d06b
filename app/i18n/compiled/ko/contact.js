// Compiled from app/i18n/messages/ko/contact.json by npm run messages: edit the catalog, not this file.

export default {
}
