// Compiled from app/i18n/messages/en/edge.json by npm run messages: edit the catalog, not this file.

export default {
  "tooLarge.title": () => "What you sent is too large",
  "tooLarge.text": () => "What you sent is too large. Please shorten it and send it again.",
  "tooLarge.pageTitle": (d) => "What you sent is too large | " + d.name,
  "tooLarge.back": () => "Press your browser’s <strong>Back</strong> button to return to the form with everything you typed still in it. Fix it there and send it again.",
  "tooLarge.reopen": () => "If you cannot go back, <form>open the form again</form> and start over."
}
