/** Alert titles in the text colour: the light yellow/grey title colours fail contrast in sunlight (and axe). */
export const readableAlert = { title: { color: 'var(--mantine-color-gray-9)' } };
