// Compiled from app/i18n/messages/ko/contact.json by npm run messages: edit the catalog, not this file.

export default {
  "contact.title": () => "문의하기",
  "contact.description": (d) => d.name + "에 대한 문의, 오류 제보, 기능 제안을 보냅니다.",
  "contact.lead": (d) => d.name + "를 쓰면서 궁금한 점, 발견한 오류, 바라는 기능이 있으면 알려주세요. 답장을 원하시면 이메일을 함께 적어주세요. 이메일은 답장하는 데에만 씁니다(<privacy>개인정보 처리방침</privacy>).",
  "contact.submitted": () => "문의가 접수되었습니다.",
  "contact.failed": () => "문의 전송에 실패했습니다.",
  "contact.retryLater": () => "잠시 후 다시 보내주세요.",
  "contact.sendAgain": () => "페이지가 오래되어 새로 불러왔습니다. 한 번 더 보내주세요.",
  "contact.rateLimited": () => "짧은 시간에 문의를 여러 번 보내셨습니다. 잠시 후 다시 보내주세요.",
  "contact.kept": () => "입력하신 내용은 그대로 남아 있습니다.",
  "contact.checkTitle": () => "입력한 내용을 확인해주세요",
  "contact.contentLabel": () => "문의 내용",
  "contact.contentHint": (d) => d.max + "자까지 쓸 수 있습니다.",
  "contact.typed": (d) => "지금 " + d.count + "자",
  "contact.limitReached": (d) => d.max + "자를 모두 썼습니다. 더 입력되지 않습니다.",
  "contact.nearLimit": (d) => "남은 글자가 " + d.near + "자 이하입니다.",
  "contact.emailLabel": () => "이메일",
  "contact.emailHint": () => "답장이 필요할 때만 적어주세요.",
  "contact.send": () => "문의 보내기",
  "contact.sending": () => "보내는 중...",
  "contact.contentRequired": () => "문의 내용을 입력해주세요",
  "contact.contentTooLong": (d) => "문의 내용은 " + d.max + "자까지 쓸 수 있습니다. 조금 줄여주세요.",
  "contact.invalidCharacter": () => "입력할 수 없는 문자가 들어 있습니다.",
  "contact.emailOneLine": () => "이메일에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.",
  "contact.badEmail": () => "이메일 형식이 올바르지 않습니다."
}
