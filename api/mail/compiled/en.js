// Compiled from api/mail/messages/en.json by npm run messages: edit the catalog, not this file.
import { plural } from "@messageformat/runtime";

function en(n, ordinal) { return !ordinal && String(n) === "1" ? "one" : "other"; }
export default {
  "mail.site": () => "HUFS Bus",
  "mail.applicationNo": (d) => "application no. " + d.id,
  "mail.adType.web": () => "Web banner ad",
  "mail.adType.kakao": () => "Chatbot ad",
  "mail.months": (d) => plural(d.months, 0, en, { one: "1 month", other: d.months + " months" }),
  "mail.fact.type": () => "Ad type",
  "mail.fact.title": () => "Title",
  "mail.fact.duration": () => "Duration",
  "mail.fact.amount": () => "Amount",
  "mail.fact.account": () => "Bank account",
  "mail.fact.period": () => "Ad period",
  "mail.fact.reason": () => "Reason",
  "mail.amount": (d) => d.monthly + " KRW × " + plural(d.months, 0, en, { one: "1 month", other: d.months + " months" }) + " = " + d.total + " KRW",
  "mail.account": (d) => d.bank + " " + d.number + " (account holder: " + d.holder + ")",
  "mail.accountByEmail": () => "The reviewer will send it to this e-mail address.",
  "mail.period": (d) => d.from + " – " + d.to,
  "mail.statusLink": () => "See your application",
  "mail.privateLink": () => "This link is private: only you, the applicant, are meant to see it. Please do not share it.",
  "mail.received.subject": (d) => "[" + d.site + "] We received your ad application (" + d.number + ")",
  "mail.received.greeting": (d) => d.name + ", we received your ad application.",
  "mail.received.pay": (d) => "Please pay the amount below by bank transfer. We approve the ad once we find your deposit, and its period starts on the day of approval. Please send the transfer under the applicant's name. An application whose deposit is not found within " + d.days + " days of applying is deleted with its image.",
  "mail.received.follow": () => "You can follow the review and its result at the link below at any time.",
  "mail.approved.subject": (d) => "[" + d.site + "] Your ad is approved (" + d.number + ")",
  "mail.approved.text": () => "We found your deposit and approved your ad. It runs during the period below.",
  "mail.approved.note": () => "Once it runs, the same link shows its impressions and clicks day by day.",
  "mail.rejected.subject": (d) => "[" + d.site + "] The review of your ad application (" + d.number + ")",
  "mail.rejected.text": () => "We are sorry: we decided not to run your ad.",
  "mail.rejected.refund": () => "If you have already paid, please ask for a refund, or ask anything else, through the site's contact page.",
  "mail.rejected.noReason": () => "No reason was given.",
  "mail.reply.subject": (d) => "[" + d.site + "] A reply to your inquiry",
  "mail.reply.quote": (d) => "Your inquiry of " + d.date,
  "mail.reply.note": () => "Replies to this e-mail are not read. For anything else, please write to us through the site's contact page.",
  "mail.reply.link": (d) => "Contact " + d.site
}
