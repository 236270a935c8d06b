import { clientLoader, loader } from '~/routes/bus.time-left';
import { TimeLeftResponseSchema } from '../../contract/bus';
import {
  apiContext,
  timeLeftBody,
  timeLeftFailureHandler,
  timeLeftHandler,
  setupApiServer,
} from '../../tests/mocks/api';

const server = setupApiServer(timeLeftHandler());

const call = () => loader({ request: new Request('http://web.test/bus/time-left'), context: apiContext(), params: {} });

describe('GET /bus/time-left', () => {
  it('answers the contract JSON, never cached', async () => {
    const response = await call();
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const body = TimeLeftResponseSchema.parse(await response.json());
    expect(body).toEqual(timeLeftBody);
  });

  it('answers 502 with a Korean message when the api fails, and logs the failure', async () => {
    server.use(timeLeftFailureHandler);
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await call();
    expect(response.status).toBe(502);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(await response.json()).toEqual({ message: '버스 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.' });
    expect(log).toHaveBeenCalledWith('[bus/time-left] upstream failed:', 'GET /api/bus/timeLeft: HTTP 503');
  });
});

describe('clientLoader', () => {
  const args = (serverLoader: () => Promise<unknown>) =>
    ({ request: new Request('http://web.test/bus/time-left'), params: {}, serverLoader }) as Parameters<
      typeof clientLoader
    >[0];

  it('passes the server answer through', async () => {
    await expect(clientLoader(args(async () => timeLeftBody))).resolves.toEqual(timeLeftBody);
  });

  it('turns a failed call (offline, a thrown 5xx) into the message answer and logs it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const offline = new TypeError('Failed to fetch');
    await expect(clientLoader(args(() => Promise.reject(offline)))).resolves.toEqual({
      message: '버스 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.',
    });
    expect(log).toHaveBeenCalledWith('[bus/time-left] refresh failed:', offline);
  });
});
