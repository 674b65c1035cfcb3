import { expect, expectAccessible, openLive, test } from '../support/fixtures.js';

// The check every `look` makes must be able to fail: a page with a field no one can name, and text
// no one can read, is refused with both findings named.
test('the accessibility check refuses a screen with an unnamed field and unreadable text', async ({ page }) => {
  await openLive(page, '/login');
  await expectAccessible(page);
  await page.evaluate(() => {
    const field = document.createElement('input');
    field.type = 'text';
    const faint = document.createElement('p');
    faint.textContent = 'Saldo disponível';
    faint.style.color = '#f4f4f4';
    faint.style.background = '#ffffff';
    document.querySelector('main')?.append(field, faint);
  });
  const refused = await expectAccessible(page).then(
    () => '',
    (error: unknown) => String(error),
  );
  expect(refused).toContain('label (critical)');
  expect(refused).toContain('color-contrast (serious)');
});
