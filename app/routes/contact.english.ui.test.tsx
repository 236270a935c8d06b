// @vitest-environment happy-dom
/**
 * /contact in English in the browser (docs/product.md §1 Languages, §2.7 Inquiry screen): the
 * labels, hints, count, button and messages in English, the browser's own check in English, and no
 * Korean. The action in English: contact.english.test.ts.
 */
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { redirect } from 'react-router-dom';
import Contact, { meta } from '~/routes/contact';
import { englishCatalog } from '~/i18n/i18n';
import { hangulOutsideKorean, renderRouteInEnglish } from '../../tests/setup/english-route';

afterEach(cleanup);

const honeypot = { nameField: 'name__confirm', tokenField: 'from__confirm', token: 'x' };
const renderContact = (action: () => Response | null = () => null, url = '/contact') =>
  renderRouteInEnglish(Contact, { url, loaderData: { honeypot }, action });

const textarea = () => screen.getByLabelText('Message') as HTMLTextAreaElement;
const type = (value: string) => act(() => void fireEvent.input(textarea(), { target: { value } }));
const send = () => act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Send' })));

describe('/contact in English', () => {
  it('labels the form in English, counts in English, links the privacy policy, and shows no Korean', async () => {
    const { container } = renderContact();
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Contact');
    expect(container.querySelector('.page__lead a')?.getAttribute('href')).toBe('/privacypolicy');
    const hint = document.getElementById(textarea().getAttribute('aria-describedby')!.split(' ')[0])!;
    expect(hint.textContent).toBe('Up to 2,000 characters. 0 so far');
    type('a'.repeat(1950));
    expect(hint.textContent).toBe('Up to 2,000 characters. 1,950 so far');
    expect(container.querySelector('.char-count__notice')?.textContent).toBe('100 characters or fewer left.');
    type('a'.repeat(2000));
    expect(container.querySelector('.char-count__notice')?.textContent).toBe(
      'You have used all 2,000 characters. No more can be typed.',
    );
    expect(screen.getByText('Email').textContent).toBe('Email (optional)');
    expect(screen.getByText('Only if you would like a reply.')).toBeTruthy();
    // The honeypot is hidden from people; a bot reads its label in the page's language too.
    expect(hangulOutsideKorean(container)).toEqual([]);
  });

  it('refuses empty content in the browser in English, sending nothing', async () => {
    const action = vi.fn(() => null);
    renderContact(action);
    await screen.findByRole('heading', { level: 1 });
    type('   ');
    await send();
    expect(action).not.toHaveBeenCalled();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Please check what you entered');
    expect(alert.textContent).toContain('Please enter your message');
  });

  it('says in English that the message was received', async () => {
    renderContact(() => redirect('/contact?sent=1', 303));
    await screen.findByRole('heading', { level: 1 });
    type('The 1150 is not on the map');
    await send();
    expect(screen.getByRole('status').textContent).toBe('Your message has been received.');
  });

  it('is titled and described in English', async () => {
    await englishCatalog();
    expect(meta({ matches: [{ id: 'root', data: { locale: 'en' } }] } as never)).toEqual([
      { title: 'Contact — HUFS Bus' },
      { name: 'description', content: 'Send HUFS Bus a question, a bug report or a suggestion.' },
    ]);
  });
});
