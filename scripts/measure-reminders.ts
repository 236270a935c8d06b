/**
 * `npm run measure:reminders`: how close to its moment a reminder fires on the demo feed
 * (docs/decisions/033-web-push-reminders.md). The demo simulator knows each bus's true times (its
 * planned runs: the arrival at the campus crossroads, the departure from the campus terminus), so
 * a reminder's error is its firing instant minus (its bus's true time − its minutes): negative is
 * early, positive late.
 *
 * A weekday morning (07:00–10:00 KST) on a test clock, second by second: the demo feed's snapshot
 * every 15 s (its poll), the prediction service learning the day from 28 days of simulated history
 * and observing each snapshot, as a fresh demo deployment does; every 5 minutes, a reminder set for
 * each route, direction and minutes (3, 5, 10) through the store, as POST /api/reminders sets it;
 * the scheduler (api/reminders/scheduler.ts) checking each second on an embedded PGlite database,
 * and posting to a loopback push service (tests/setup/push.ts) that stamps each push with the test
 * clock. Prints, per direction: sent, dropped (their bus came first), and the error's median,
 * 10th and 90th percentiles and share within ±60 s; and how many arrived after the real bus nearest
 * their target had come or gone (a prediction that missed it).
 */
import { openDatabase } from '../api/db/client';
import { planDay, snapshotAt } from '../api/bus/feed/demo/simulator';
import { transitIdsNow } from '../api/bus/feed/transit-config';
import { inThreadJobs } from '../api/bus/predictions/jobs';
import { createPredictionService } from '../api/bus/predictions/service';
import { addServiceDays } from '../api/time';
import { busTimesOf, type BusTimes } from '../api/reminders/moment';
import { pushHostsOf } from '../api/reminders/push-endpoint';
import { createReminderScheduler } from '../api/reminders/scheduler';
import { createReminder } from '../api/reminders/store';
import { REMINDER_LEAD_MINUTES } from '../contract/reminder-leads';
import { ROUTE_NOS, type Direction } from '../contract/transit';
import { FakeClock } from '../tests/setup/fakes';
import { startPushService, TEST_VAPID } from '../tests/setup/push';

const SEED = 20240604;
const TODAY = '2026-11-23'; // a Monday
const FROM = new Date(`${TODAY}T07:00:00+09:00`);
const HOURS = 3;
const POLL_SEC = 15;
const SET_EVERY_SEC = 300;
const SILENT = { info: () => undefined, warn: () => undefined, error: () => undefined };

const runs = planDay(SEED, TODAY);
/**
 * The true time of the bus a reminder was set for: up, the arrival at the campus crossroads of its
 * plate's run nearest `targetAt`; down, the route's departure nearest `targetAt`.
 */
function trueTime(routeNo: string, direction: Direction, targetAt: Date, plateNo: string | null): Date {
  const candidates = runs
    .filter((run) => run.routeNo === routeNo && (direction === 'down' || !plateNo || run.vehicle.plateNo === plateNo))
    .map((run) => (direction === 'up' ? run.upStops[0] : run.departure));
  return candidates.reduce((best, at) =>
    Math.abs(at.getTime() - targetAt.getTime()) < Math.abs(best.getTime() - targetAt.getTime()) ? at : best,
  );
}

const database = await openDatabase({ dataDir: 'memory' });
const clock = new FakeClock(FROM);
const service = await startPushService(() => clock.now().getTime());
const history = Array.from({ length: 28 }, (_, i) => addServiceDays(TODAY, i - 28)).flatMap((date) =>
  planDay(SEED, date).map((run) => ({
    routeNo: run.routeNo,
    serviceDate: run.serviceDate,
    departedAt: run.departure,
    arrivedAt: run.upStops[0],
  })),
);
const predictions = createPredictionService({
  jobs: inThreadJobs,
  loadHistory: async ({ fromDate, toDate }) =>
    history.filter((d) => d.serviceDate >= fromDate && d.serviceDate <= toDate),
  logger: SILENT,
  transit: transitIdsNow(),
});
await predictions.today(FROM);

let snapshot = snapshotAt(SEED, FROM);
predictions.observe(snapshot);
const timesNow = (): BusTimes => busTimesOf(snapshot, predictions.todayNow(clock.now()).routes);
const scheduler = createReminderScheduler({
  db: database.db,
  clock,
  logger: SILENT,
  vapid: TEST_VAPID,
  busTimes: timesNow,
  isLeader: () => true,
});
const set = new Map<
  string,
  { routeNo: string; direction: Direction; leadMin: number; targetAt: Date; plateNo: string | null }
>();
const hosts = pushHostsOf(service.host);
let dropped = 0;

for (let second = 0; second < HOURS * 3600; second++) {
  if (second > 0) clock.advance(1);
  if (second % POLL_SEC === 0) {
    snapshot = snapshotAt(SEED, clock.now());
    predictions.observe(snapshot);
  }
  if (second % SET_EVERY_SEC === 0) {
    const times = timesNow();
    for (const routeNo of ROUTE_NOS) {
      for (const direction of ['up', 'down'] as const) {
        for (const leadMin of REMINDER_LEAD_MINUTES) {
          const name = `${routeNo}-${direction}-${leadMin}-${second}`;
          const { subscription } = service.subscribe(name);
          const reminder = await createReminder(
            database.db,
            { subscription, routeNo, direction, leadMin },
            { locale: 'ko', hosts, now: clock.now(), times },
          );
          if (typeof reminder !== 'string') {
            const target = times[direction]
              .get(routeNo)!
              .find((bus) => bus.at.getTime() - clock.now().getTime() > leadMin * 60_000);
            set.set(name, { routeNo, direction, leadMin, targetAt: target!.at, plateNo: target!.plateNo });
          }
        }
      }
    }
  }
  const counts = await scheduler.check();
  dropped += counts?.dropped ?? 0;
  // The pushes claimed this second go out before the clock moves on (a real second is long enough).
  await scheduler.idle();
}

const errors: Record<Direction, number[]> = { up: [], down: [] };
let afterTheBus = 0;
for (const delivery of service.delivered) {
  const aim = set.get(delivery.name)!;
  const truth = trueTime(aim.routeNo, aim.direction, aim.targetAt, aim.plateNo);
  errors[aim.direction].push((delivery.at.getTime() - (truth.getTime() - aim.leadMin * 60_000)) / 1000);
  if (delivery.at >= truth) afterTheBus++;
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))];
console.log(
  `Reminders on the demo feed, ${TODAY} 07:00–10:00 KST, ${set.size} set (every 5 minutes, each route, direction and lead):`,
);
for (const direction of ['up', 'down'] as const) {
  const values = errors[direction];
  const within = values.filter((value) => Math.abs(value) <= 60).length;
  console.log(
    `  ${direction}: ${values.length} sent; error (s, fired − (true time − minutes)): median ${quantile(values, 0.5).toFixed(0)}, ` +
      `p10 ${quantile(values, 0.1).toFixed(0)}, p90 ${quantile(values, 0.9).toFixed(0)}; within ±60 s: ${((100 * within) / values.length).toFixed(0)} %`,
  );
}
console.log(
  `  dropped (their bus came first, or was not seen again): ${dropped}; arrived after the real bus nearest ` +
    `their target had come or gone (the prediction missed it): ${afterTheBus}`,
);
await service.close();
await database.close();
