// Compiled from app/i18n/messages/ko/install.json by npm run messages: edit the catalog, not this file.

export default {
  "install.title": (d) => "홈 화면에 " + d.name + " 추가",
  "install.prompt": () => "설치하면 홈 화면에서 바로 버스 정보를 열 수 있어요.",
  "install.button": () => "앱 설치",
  "install.ios": () => "홈 화면에 추가하면 앱처럼 바로 열 수 있어요.",
  "install.step1Before": () => "Safari의 ",
  "install.step1Share": () => "공유",
  "install.step1After": () => " 버튼을 누르세요.",
  "install.step2Before": () => "",
  "install.step2Add": () => "‘홈 화면에 추가’",
  "install.step2After": () => "를 누르세요.",
  "install.close": () => "설치 안내 닫기"
}
