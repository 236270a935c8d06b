import { arrivalTone } from '~/utils/arrival';

describe('arrivalTone (docs/product.md §9)', () => {
  it('has no arrival information at 0 minutes or less', () => {
    expect(arrivalTone(0)).toBe('none');
    expect(arrivalTone(-2)).toBe('none');
  });

  it('is soon (red) from 1 to 4 minutes', () => {
    expect(arrivalTone(1)).toBe('soon');
    expect(arrivalTone(4)).toBe('soon');
  });

  it('is normal above 4 minutes', () => {
    expect(arrivalTone(5)).toBe('normal');
  });
});
