// Compiled from api/reminders/messages/en.json by npm run messages: edit the catalog, not this file.
import { plural } from "@messageformat/runtime";

function en(n, ordinal) { return !ordinal && String(n) === "1" ? "one" : "other"; }
export default {
  "reminder.title": (d) => "Bus " + d.routeNo,
  "reminder.up": (d) => "The " + d.routeNo + " reaches the HUFS crossroads in about " + plural(d.minutes, 0, en, { one: d.minutes + " minute", other: d.minutes + " minutes" }) + ".",
  "reminder.down": (d) => "The " + d.routeNo + " is expected to leave campus in about " + plural(d.minutes, 0, en, { one: d.minutes + " minute", other: d.minutes + " minutes" }) + "."
}
