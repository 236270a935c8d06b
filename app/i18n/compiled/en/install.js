// Compiled from app/i18n/messages/en/install.json by npm run messages: edit the catalog, not this file.

export default {
  "install.title": (d) => "Add " + d.name + " to your home screen",
  "install.prompt": () => "Install it to open the bus information straight from your home screen.",
  "install.button": () => "Install the app",
  "install.ios": () => "Add it to your home screen to open it like an app.",
  "install.step1Before": () => "Tap Safari's ",
  "install.step1Share": () => "Share",
  "install.step1After": () => " button.",
  "install.step2Before": () => "Tap ",
  "install.step2Add": () => "‘Add to Home Screen’",
  "install.step2After": () => ".",
  "install.close": () => "Close the install hint"
}
