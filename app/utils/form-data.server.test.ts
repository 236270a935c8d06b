import { serialIdOf } from '~/utils/form-data.server';

describe('serialIdOf', () => {
  it('reads the decimal ids of a PostgreSQL serial', () => {
    expect(serialIdOf('1')).toBe(1);
    expect(serialIdOf('2147483647')).toBe(2147483647);
  });

  it.each(['', '0', '007', '-1', '1e3', '0x7', '1.0', ' 1', '12345678901', null, undefined])('refuses %j', (value) =>
    expect(serialIdOf(value)).toBeNull(),
  );

  it('refuses a file where an id should be', () => {
    expect(serialIdOf(new File(['1'], '1'))).toBeNull();
  });
});
