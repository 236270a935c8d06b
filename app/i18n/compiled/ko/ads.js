// Compiled from app/i18n/messages/ko/ads.json by npm run messages: edit the catalog, not this file.

export default {
}
