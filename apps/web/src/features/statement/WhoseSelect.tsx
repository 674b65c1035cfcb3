import { Select } from '@mantine/core';
import { whoseFields } from './filters';
import { WHOSE_GROUP_LABELS, type WhoseGroup, type WhoseOption, type WhoseOptions } from './api/whose';
import classes from './StatementToolbar.module.css';

/** The select's option for the whole account ('Todos'): no plate, cost centre or Motorista. */
const ALL = 'todos';
const ALL_WHOSE_LABEL = 'Todos';

/** Above this many options the select is searchable: a big fleet's plates are typed, not scrolled through. */
const SEARCHABLE_FROM = 12;

/** 'Veículo, centro de custo ou motorista', or only what the person may filter by ('Veículo' on a driver's own account). */
function whoseLabel(reads: WhoseOptions['reads']): string {
  const parts = [reads.placa ? 'veículo' : null, reads.centro ? 'centro de custo' : null, reads.motorista ? 'motorista' : null].filter(
    (part): part is string => part !== null,
  );
  const text = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} ou ${parts.at(-1)}` : (parts[0] ?? '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The option of `value` (one in the address, say), or a stand-in while its list comes or when it is not in it. */
export function whoseOptionOf(value: string, groups: readonly WhoseGroup[]): WhoseOption {
  const found = groups.flatMap((group) => group.items).find((item) => item.value === value);
  if (found) return found;
  const { placa, centro } = whoseFields(value);
  return { value, label: placa || (centro ? 'Centro de custo' : 'Motorista') };
}

/** The groups with the chosen value among them (in its own group), so that the select always shows it. */
function withChosen(groups: readonly WhoseGroup[], value: string | null): WhoseGroup[] {
  if (value === null || groups.some((group) => group.items.some((item) => item.value === value))) return [...groups];
  const { placa, centro } = whoseFields(value);
  const name = placa ? WHOSE_GROUP_LABELS.placa : centro ? WHOSE_GROUP_LABELS.centro : WHOSE_GROUP_LABELS.motorista;
  const chosen = whoseOptionOf(value, groups);
  const known = groups.find((group) => group.group === name);
  return known
    ? groups.map((group) => (group === known ? { ...group, items: [...group.items, chosen] } : group))
    : [...groups, { group: name, items: [chosen] }];
}

interface WhoseSelectProps {
  options: WhoseOptions;
  /** 'placa:FRT1A11', 'centro:3', 'motorista:5', or null: the whole account. */
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string | undefined;
}

/**
 * Decision 79: one select for whose entries the statement keeps: a plate ('Veículos'), a cost centre
 * ('Centros de custo', 'código · nome') or a Motorista ('Motoristas'), each group only for the people
 * who may read it, or 'Todos'. A Motorista chosen is the trucks assigned to them today (the portal is
 * not told who drove): said under the label, with those plates. Nothing to offer (a driver without
 * vehicles), nothing shown, unless the address already chose one (it can then be taken off).
 */
export function WhoseSelect({ options, value, onChange, error }: WhoseSelectProps) {
  const groups = withChosen(options.groups, value);
  if (value === null && !error && !options.loading && groups.length === 0) return null;
  const count = groups.reduce((sum, group) => sum + group.items.length, 0);
  const chosen = value === null ? null : whoseOptionOf(value, groups);
  return (
    <Select
      className={`${classes.select} ${classes.whose}`}
      classNames={{ option: classes.whoseOption }}
      size="md"
      label={whoseLabel(options.reads)}
      description={chosen?.hint}
      data={[{ value: ALL, label: ALL_WHOSE_LABEL }, ...groups]}
      value={value ?? ALL}
      onChange={(next) => onChange(next === null || next === ALL ? null : next)}
      allowDeselect={false}
      searchable={count > SEARCHABLE_FROM}
      nothingFoundMessage="Nada encontrado"
      maxDropdownHeight={320}
      // The list follows its field when the page scrolls under the finger, rather than vanish while open.
      comboboxProps={{ hideDetached: false }}
      error={error}
    />
  );
}
