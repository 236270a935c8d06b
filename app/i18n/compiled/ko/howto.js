// Compiled from app/i18n/messages/ko/howto.json by npm run messages: edit the catalog, not this file.

export default {
  "howto.title": () => "이용 방법",
  "howto.description": (d) => d.name + " 사용법: 상행 실시간 도착 정보와 하행 출발 예상 시간을 보는 방법, " + d.seconds + "초마다 새로고침되는 정보 읽는 법.",
  "howto.lead": (d) => d.name + "는 글로벌캠퍼스를 오가는 광역버스의 실시간 도착 정보와 캠퍼스에서 떠나는 버스의 출발 예상 시간을 한 화면에 보여줍니다. 하루 약 200명의 학생과 교직원이 통학길에 쓰고 있습니다.",
  "howto.step1Title": () => "사이트에 접속하세요",
  "howto.step1": () => "휴대폰 브라우저로 <home>홈 화면</home>을 여세요. 로그인이나 설치 없이 바로 볼 수 있고, 브라우저 메뉴의 ‘홈 화면에 추가’로 앱처럼 열 수도 있습니다.",
  "howto.step2Title": () => "버스 노선을 확인하세요",
  "howto.step2": () => "화면 위의 <strong>상행</strong>은 캠퍼스로 들어오는 방향(<up/>), <strong>하행</strong>은 캠퍼스에서 나가는 방향(<down/>)입니다. 버스가 어느 구간에 들어오면 그 정류장이 밝게 표시되고 버스 번호가 함께 나타납니다.",
  "howto.step3Title": () => "실시간 도착 정보를 보세요",
  "howto.step3": (d) => "상행 탭의 카드마다 노선 번호, 도착까지 남은 시간, 남은 정류장 수가 나옵니다. 정보는 <strong>" + d.seconds + "초</strong>마다 자동으로 새로고침되고, 화면의 카운트다운이 다음 새로고침까지 남은 시간을 알려줍니다.",
  "howto.step4Title": () => "하행 출발 예상 시간을 확인하세요",
  "howto.step4": (d) => "하행 탭에서는 노선마다 어제와 7일 전에 실제로 출발한 시각, 그리고 " + d.name + "가 운행 기록과 실시간 위치로 계산한 예상 출발 시각을 보여줍니다. ‘" + d.button + "’를 누르면 오늘의 예상 시간을 노선별로 골라 볼 수 있습니다.",
  "howto.step5Title": () => "궁금한 점은 FAQ와 문의하기로",
  "howto.step5": () => "자주 묻는 질문은 <faq>FAQ</faq>에 모아 두었습니다. 오류 신고나 건의는 <contact>문의하기</contact>로 보내주세요.",
  "howto.note": () => "실제 도착·출발 시간은 교통 상황이나 행사, 날씨 등에 따라 달라질 수 있습니다. 조금 여유 있게 나와 주세요.",
  "howto.sampleTitle": () => "버스 정보 예시",
  "howto.sampleIntro": () => "홈 화면의 상행 카드는 버스마다 아래 세 가지 정보로 만들어집니다.",
  "howto.sampleCaption": () => "예시 화면 (실제 운행 정보가 아닙니다)",
  "howto.fieldsCaption": () => "도착 정보의 항목",
  "howto.fieldHead": () => "항목",
  "howto.meaningHead": () => "뜻",
  "howto.exampleHead": () => "예시",
  "howto.routeNo": () => "노선 번호",
  "howto.time": (d) => "<stop/> 도착까지 남은 시간(분). 4분 이하면 빨간색과 ‘" + d.soon + "’으로, 0 이하면 ‘" + d.noInfo + "’으로 표시",
  "howto.location": () => "<stop/>까지 남은 정류장 수"
}
