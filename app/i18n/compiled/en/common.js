// Compiled from app/i18n/messages/en/common.json by npm run messages: edit the catalog, not this file.
import { plural } from "@messageformat/runtime";

function en(n, ordinal) { return !ordinal && String(n) === "1" ? "one" : "other"; }
export default {
  "site.name": () => "HUFS Bus",
  "site.note": () => "This service is not affiliated with Hankuk University of Foreign Studies.",
  "accuracy.sentence": (d) => plural(d.minutes, 0, en, { "0": "Over the last 2 weeks, the expected departures were off by less than a minute on average.", one: "Over the last 2 weeks, the expected departures were off by about 1 minute on average.", other: "Over the last 2 weeks, the expected departures were off by about " + d.minutes + " minutes on average." }),
  "error.notFoundTitle": () => "Page not found.",
  "error.notFound": () => "The address has changed, or there is no such page.",
  "error.offlineTitle": () => "You are offline",
  "error.offline": () => "Live bus information needs an internet connection. Check your connection and try again.",
  "error.forbiddenTitle": () => "This request cannot be handled.",
  "error.forbidden": () => "It came from another site, or it is not allowed.",
  "error.title": () => "Something went wrong.",
  "error.text": () => "It may be a passing error. Please try again in a moment.",
  "error.home": () => "Go to the home page",
  "error.notFoundPageTitle": (d) => "Page not found — " + d.name,
  "offline.pageTitle": (d) => "Offline — " + d.name,
  "offline.retry": () => "Try again",
  "form.optional": () => "optional",
  "form.honeypot": () => "Leave this field empty"
}
