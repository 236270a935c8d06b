import { loader } from '~/routes/images.$key';
import { startWebApi } from '../../tests/setup/web-api';
it('d', async () => {
  const api = await startWebApi();
  const { key } = await api.uploadImage('web');
  const r = await loader({ request: new Request('http://w/images/' + key), context: api.context(), params: { key } });
  console.log(r.status, [...r.headers]);
  const h = new Headers(); h.set('X-Content-Type-Options', 'nosniff'); console.log([...h], h.get('X-Content-Type-Options'));
  await api.close();
});
