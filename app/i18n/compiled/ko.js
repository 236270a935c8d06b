// Compiled from app/i18n/messages/ko.json by npm run messages: edit the catalog, not this file.

export default {
  "site.note": () => "본 서비스는 한국외국어대학교와 무관합니다."
}
