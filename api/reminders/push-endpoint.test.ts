import { DEFAULT_PUSH_HOSTS, isAllowedPushEndpoint, pushHostsOf } from './push-endpoint';

describe('the push endpoints the server posts to', () => {
  const defaults = pushHostsOf(undefined);

  it('are the browsers’ push services over https, by default', () => {
    expect(defaults.map((host) => host.name)).toEqual(DEFAULT_PUSH_HOSTS.map((host) => host.replace('*.', '')));
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAAB',
      'https://web.push.apple.com/QGm5ZXcV',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB',
    ]) {
      expect(isAllowedPushEndpoint(endpoint, defaults), endpoint).toBe(true);
    }
  });

  it('refuse everything else: other hosts, look-alikes, http, other ports, credentials, non-URLs', () => {
    for (const endpoint of [
      'https://evil.example/fcm/send/x',
      'https://fcm.googleapis.com.evil.example/x',
      'https://evilfcm.googleapis.com/x',
      'https://notify.windows.com/w/',
      'https://x.notify.windows.com.evil.example/w/',
      'http://fcm.googleapis.com/fcm/send/x',
      'https://fcm.googleapis.com:8443/fcm/send/x',
      'https://user:pass@fcm.googleapis.com/fcm/send/x',
      'https://169.254.169.254/latest/meta-data',
      'http://127.0.0.1:8080/push',
      'file:///etc/passwd',
      'not a url',
      '',
    ]) {
      expect(isAllowedPushEndpoint(endpoint, defaults), endpoint).toBe(false);
    }
  });

  it('are replaced by PUSH_ENDPOINT_HOSTS; a port on 127.0.0.1 allows plain http there only', () => {
    const hosts = pushHostsOf(' push.example , 127.0.0.1:8099,*.relay.example ');
    expect(isAllowedPushEndpoint('https://push.example/s/1', hosts)).toBe(true);
    expect(isAllowedPushEndpoint('https://a.relay.example/s/1', hosts)).toBe(true);
    expect(isAllowedPushEndpoint('http://127.0.0.1:8099/s/1', hosts)).toBe(true);
    expect(isAllowedPushEndpoint('https://127.0.0.1:8099/s/1', hosts)).toBe(true);
    expect(isAllowedPushEndpoint('http://127.0.0.1:8098/s/1', hosts)).toBe(false);
    expect(isAllowedPushEndpoint('http://push.example/s/1', hosts)).toBe(false);
    expect(isAllowedPushEndpoint('https://fcm.googleapis.com/fcm/send/x', hosts)).toBe(false);
  });

  it('refuses a list entry that is no host', () => {
    for (const list of [
      'https://push.example',
      'push.example:0',
      'push.example:70000',
      'a b',
      '*.',
      'push.example/x',
    ]) {
      expect(() => pushHostsOf(list), list).toThrow('PUSH_ENDPOINT_HOSTS');
    }
  });
});
