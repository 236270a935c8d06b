// Compiled from app/i18n/messages/ko/common.json by npm run messages: edit the catalog, not this file.
import { plural } from "@messageformat/runtime";

function ko() { return "other"; }
export default {
  "site.name": () => "외대 버스",
  "site.note": () => "본 서비스는 한국외국어대학교와 무관합니다.",
  "accuracy.sentence": (d) => plural(d.minutes, 0, ko, { "0": "지난 2주 동안 예상 출발 시각의 평균 오차는 1분 미만입니다.", other: "지난 2주 동안 예상 출발 시각의 평균 오차는 약 " + d.minutes + "분입니다." }),
  "error.notFoundTitle": () => "페이지를 찾을 수 없습니다.",
  "error.notFound": () => "주소가 바뀌었거나 없는 페이지입니다.",
  "error.offlineTitle": () => "오프라인 상태입니다",
  "error.offline": () => "실시간 버스 정보는 인터넷에 연결되어 있어야 볼 수 있습니다. 연결을 확인한 뒤 다시 시도해주세요.",
  "error.forbiddenTitle": () => "요청을 처리할 수 없습니다.",
  "error.forbidden": () => "다른 사이트에서 보낸 요청이거나 허용되지 않은 요청입니다.",
  "error.title": () => "문제가 발생했습니다.",
  "error.text": () => "일시적인 오류일 수 있습니다. 잠시 후 다시 시도해주세요.",
  "error.home": () => "홈으로 가기",
  "error.notFoundPageTitle": (d) => "페이지를 찾을 수 없습니다 — " + d.name,
  "offline.pageTitle": (d) => "오프라인 — " + d.name,
  "offline.retry": () => "다시 시도",
  "form.optional": () => "선택",
  "form.honeypot": () => "이 칸은 비워두세요"
}
