/** The README's KakaoTalk skill example is the request and answer api/routes/skill-responses.test.ts replays. */
import { readFileSync } from 'node:fs';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('README', () => {
  it('shows the skill example request and answer exactly as the replayed fixtures', () => {
    const section = read('../README.md').split('## KakaoTalk chatbot')[1]?.split('\n## ')[0] ?? '';
    const blocks = [...section.matchAll(/```json\n([\s\S]*?)\n```/g)].map((match) => JSON.parse(match[1]));
    expect(blocks).toEqual([
      JSON.parse(read('./fixtures/skill/request.json')),
      JSON.parse(read('./fixtures/skill/response.json')),
    ]);
  });
});
