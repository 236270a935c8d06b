import { clipText } from './skill';

describe('clipText', () => {
  it('keeps a text within the limit and cuts a longer one to the limit with an ellipsis', () => {
    expect(clipText('막차', 2)).toBe('막차');
    expect(clipText('오늘 막차', 4)).toBe('오늘 …');
  });

  it('never splits an emoji (a surrogate pair) at the cut', () => {
    const clipped = clipText('할인🎉이벤트', 4); // 할, 인, then 🎉 takes two units
    expect(clipped).toBe('할인…');
    expect(clipped.length).toBeLessThanOrEqual(4);
    expect(clipText('할🎉이벤트', 4)).toBe('할🎉…');
  });
});
