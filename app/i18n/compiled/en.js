// Compiled from app/i18n/messages/en.json by npm run messages: edit the catalog, not this file.

export default {
  "site.note": () => "This service is not affiliated with Hankuk University of Foreign Studies."
}
