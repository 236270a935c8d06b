// Compiled from app/i18n/messages/en/contact.json by npm run messages: edit the catalog, not this file.

export default {
  "contact.title": () => "Contact",
  "contact.description": (d) => "Send " + d.name + " a question, a bug report or a suggestion.",
  "contact.lead": (d) => "Questions, bugs you found, features you’d like in " + d.name + ": let us know. To get a reply, add your email; we use it only to reply (<privacy>privacy policy</privacy>).",
  "contact.submitted": () => "Your message has been received.",
  "contact.failed": () => "Your message could not be sent.",
  "contact.retryLater": () => "Please try again in a moment.",
  "contact.sendAgain": () => "The page was old, so it has been reloaded. Please send once more.",
  "contact.rateLimited": () => "You sent several messages in a short time. Please try again in a moment.",
  "contact.kept": () => "What you typed is still here.",
  "contact.checkTitle": () => "Please check what you entered",
  "contact.contentLabel": () => "Message",
  "contact.contentHint": (d) => "Up to " + d.max + " characters.",
  "contact.typed": (d) => d.count + " so far",
  "contact.limitReached": (d) => "You have used all " + d.max + " characters. No more can be typed.",
  "contact.nearLimit": (d) => d.near + " characters or fewer left.",
  "contact.emailLabel": () => "Email",
  "contact.emailHint": () => "Only if you would like a reply.",
  "contact.send": () => "Send",
  "contact.sending": () => "Sending...",
  "contact.contentRequired": () => "Please enter your message",
  "contact.contentTooLong": (d) => "Your message can be up to " + d.max + " characters. Please shorten it.",
  "contact.invalidCharacter": () => "It contains a character that cannot be used.",
  "contact.emailOneLine": () => "The email cannot contain line breaks or control characters.",
  "contact.badEmail": () => "That email address doesn’t look right."
}
