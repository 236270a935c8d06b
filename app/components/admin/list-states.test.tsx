// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { ListStates } from '~/components/admin/list-states';

afterEach(cleanup);

function renderList(items: string[] | null) {
  return render(
    <ListStates items={items} failed="목록을 불러오지 못했습니다." empty="항목이 없습니다.">
      {(loaded) => (
        <ul>
          {loaded.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
    </ListStates>,
  );
}

describe('ListStates', () => {
  it('says a failed load as an alert, and shows no list', () => {
    renderList(null);
    expect(screen.getByRole('alert').textContent).toBe('목록을 불러오지 못했습니다.');
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('says there is nothing to show for an empty list, without an alert', () => {
    renderList([]);
    expect(screen.getByText('항목이 없습니다.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('renders the loaded items through its children', () => {
    renderList(['첫째', '둘째']);
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['첫째', '둘째']);
    expect(screen.queryByText('항목이 없습니다.')).toBeNull();
  });
});
