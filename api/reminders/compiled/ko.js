// Compiled from api/reminders/messages/ko.json by npm run messages: edit the catalog, not this file.

export default {
  "reminder.title": (d) => d.routeNo + "번 버스 알림",
  "reminder.up": (d) => d.routeNo + "번 버스가 약 " + d.minutes + "분 후 외대사거리에 도착합니다.",
  "reminder.down": (d) => d.routeNo + "번 버스가 약 " + d.minutes + "분 후 캠퍼스에서 출발할 예정입니다."
}
