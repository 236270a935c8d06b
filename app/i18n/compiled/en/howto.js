// Compiled from app/i18n/messages/en/howto.json by npm run messages: edit the catalog, not this file.

export default {
  "howto.title": () => "How to use",
  "howto.description": (d) => "How to use " + d.name + ": live arrivals to campus, expected departures from campus, and reading the information that refreshes every " + d.seconds + " seconds.",
  "howto.lead": (d) => d.name + " shows, on one screen, live arrivals of the express buses to the Global Campus and when buses are expected to leave it. About 200 students and staff use it on their way to and from campus every day.",
  "howto.step1Title": () => "Open the site",
  "howto.step1": () => "Open the <home>home screen</home> in your phone’s browser. No sign-in or install needed; you can also use “Add to Home Screen” in the browser’s menu to open it like an app.",
  "howto.step2Title": () => "Check the routes",
  "howto.step2": () => "At the top, <strong>To campus</strong> is the direction into campus (<up/>) and <strong>From campus</strong> the direction out of it (<down/>). When a bus enters a stretch, that stop lights up with the bus number beside it.",
  "howto.step3Title": () => "Read the live arrivals",
  "howto.step3": (d) => "On the To campus tab, each card shows the route number, the minutes until the bus arrives and how many stops away it is. It refreshes every <strong>" + d.seconds + " seconds</strong>, and the countdown shows the time left until the next refresh.",
  "howto.step4Title": () => "Check the expected departures",
  "howto.step4": (d) => "On the From campus tab, each route shows when the bus really left yesterday and 7 days ago, and the departure " + d.name + " expects from past runs and live positions. Tap “" + d.button + "” to see today’s expected times route by route.",
  "howto.step5Title": () => "Questions? FAQ and Contact",
  "howto.step5": () => "Common questions are in the <faq>FAQ</faq>. Send bug reports and suggestions through <contact>Contact</contact>.",
  "howto.note": () => "Real arrival and departure times vary with traffic, events and weather. Leave a little early.",
  "howto.sampleTitle": () => "Sample bus information",
  "howto.sampleIntro": () => "Each To campus card on the home screen is made of the three pieces of information below.",
  "howto.sampleCaption": () => "Sample screen (not real bus information)",
  "howto.fieldsCaption": () => "What an arrival holds",
  "howto.fieldHead": () => "Field",
  "howto.meaningHead": () => "Meaning",
  "howto.exampleHead": () => "Example",
  "howto.routeNo": () => "Route number",
  "howto.time": (d) => "Minutes until the bus reaches <stop/>. At 4 or less it turns red and says “" + d.soon + "”; at 0 or less it says “" + d.noInfo + "”.",
  "howto.location": () => "Stops left before <stop/>"
}
