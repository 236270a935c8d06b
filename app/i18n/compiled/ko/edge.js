// Compiled from app/i18n/messages/ko/edge.json by npm run messages: edit the catalog, not this file.

export default {
  "tooLarge.title": () => "보낸 내용이 너무 큽니다",
  "tooLarge.text": () => "보낸 내용이 너무 큽니다. 입력한 내용을 줄여서 다시 보내주세요.",
  "tooLarge.pageTitle": (d) => "보낸 내용이 너무 큽니다 | " + d.name,
  "tooLarge.back": () => "브라우저의 <strong>뒤로</strong> 버튼을 누르면 입력하신 내용이 그대로 남아 있는 양식으로 돌아갑니다. 고친 뒤 다시 보내주세요.",
  "tooLarge.reopen": () => "뒤로 갈 수 없다면 <form>양식을 다시 열어</form> 처음부터 입력해주세요."
}
