/**
 * The api for tests, composed by the api's own composition root (api/compose.ts composeApi) on the
 * parts a test brings: its database, storage and clock; a bus feed that never changes, a
 * recording logger and the jobs on the test's own thread unless given; and any service it stubs (the rest built as the runtime builds it).
 */
import { createApi, type Api } from '../../api/app';
import { emptyFeedState } from '../../api/bus/feed/store';
import { composeApi, type ApiParts } from '../../api/compose';
import { inThreadJobs } from '../../api/bus/predictions/jobs';
import { parseInThread } from '../../api/bus/feed/gbis/discover';
import { recordingLogger } from './fakes';

/** createApi on what composeApi builds from `parts`. */
export function testApi(parts: Pick<ApiParts, 'db' | 'storage' | 'clock'> & Partial<ApiParts>): Api {
  return createApi(
    composeApi({
      feed: { current: () => emptyFeedState('demo'), role: () => 'leader' },
      logger: recordingLogger(),
      jobs: inThreadJobs,
      parseDiscovery: parseInThread,
      ...parts,
    }),
  );
}
