import { action, loader } from '~/routes/$';

describe('catch-all route', () => {
  it('answers 404 for any unknown URL, GET or POST', async () => {
    expect(loader().status).toBe(404);
    expect(action().status).toBe(404);
  });
});
