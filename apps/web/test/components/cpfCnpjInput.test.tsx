import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CpfCnpjInput } from '../../src/components/ui/CpfCnpjInput';
import { formatCpfCnpjInput } from '../../src/components/ui/cpfCnpjInput';
import { MaskedInput } from '../../src/components/ui/MaskedInput';
import { cpfCnpjMask } from '../../src/components/ui/masks';
import { renderWithProviders } from '../support/utils';

function Fields() {
  const [masked, setMasked] = useState('');
  const [plain, setPlain] = useState('');
  return (
    <>
      <MaskedInput label="imask" maskOptions={cpfCnpjMask} value={masked} onChange={setMasked} />
      <CpfCnpjInput label="sem biblioteca" value={plain} onChange={setPlain} />
    </>
  );
}

const typed = [
  '52998224725',
  '529982247250',
  '12abc34501de35999',
  '1234567890123A45',
  'ab',
  'a1b2c3',
  '529.982.247-25',
  '11.222.333/0001-81',
  '000',
  '0000',
  '1234567890AB12',
];

describe('CpfCnpjInput (the /login field without react-imask)', () => {
  it.each(typed)('types %s exactly as the react-imask cpfCnpjMask does', async (text) => {
    const { user } = renderWithProviders(<Fields />);
    const reference = screen.getByLabelText('imask');
    const input = screen.getByLabelText('sem biblioteca');
    await user.type(reference, text);
    await user.type(input, text);
    expect(input).toHaveValue((reference as HTMLInputElement).value);
  });

  it('keeps the caret after the same character when editing in the middle', async () => {
    const { user } = renderWithProviders(<Fields />);
    const input = screen.getByLabelText<HTMLInputElement>('sem biblioteca');
    await user.type(input, '5299822472');
    await user.type(input, '8', { initialSelectionStart: 5, initialSelectionEnd: 5 });
    expect(input).toHaveValue('529.988.224-72');
    expect(input.selectionStart).toBe(6);
  });

  it('tells the form when the field loses the focus (react-hook-form marks it touched)', async () => {
    const onBlur = vi.fn();
    const { user } = renderWithProviders(<CpfCnpjInput label="documento" value="" onChange={() => undefined} onBlur={onBlur} />);
    await user.click(screen.getByLabelText('documento'));
    await user.tab();
    expect(onBlur).toHaveBeenCalledTimes(1);
  });

  it('formats pasted text in one go', () => {
    expect(formatCpfCnpjInput('529.982.247-25')).toBe('529.982.247-25');
    expect(formatCpfCnpjInput('12.abc.345/01de-35')).toBe('12.ABC.345/01DE-35');
    expect(formatCpfCnpjInput('')).toBe('');
  });
});
