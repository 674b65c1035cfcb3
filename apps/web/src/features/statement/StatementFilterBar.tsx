import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Button, NativeSelect, TextInput } from '@mantine/core';
import { statementFilters, type StatementFilters } from '@portal/contract';
import {
  saoPauloDay,
  STATEMENT_KINDS,
  STATEMENT_PERIODS,
  statementKindLabels,
  statementPeriodLabels,
  statementRange,
} from '@portal/domain';
import { IconAdjustmentsHorizontal, IconChevronDown, IconFilterOff } from '@tabler/icons-react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import type { WhoseOptions } from './api/whose';
import {
  ALL_KINDS_LABEL,
  filterLabels,
  hasFilters,
  NO_FILTERS,
  readFilterForm,
  WHOSE_FILTERS,
  whoseFields,
  whoseValueOf,
  type StatementFilterForm,
} from './filters';
import classes from './StatementToolbar.module.css';
import { whoseOptionOf, WhoseSelect } from './WhoseSelect';
import { PrerenderedForm } from '../../components/ui/PrerenderedForm';

/** The contract's statementFilters reads any value: the form's texts are some of them (its messages on the fields). */
const filterSchema = statementFilters as z.ZodType<StatementFilters, StatementFilterForm>;
const resolver: Resolver<StatementFilterForm, unknown, StatementFilters> = zodResolver(filterSchema);

const periodOptions = STATEMENT_PERIODS.map((value) => ({ value, label: statementPeriodLabels[value] }));
const kindOptions = [
  { value: '', label: ALL_KINDS_LABEL },
  ...STATEMENT_KINDS.map((value) => ({ value, label: statementKindLabels[value] })),
];
/** 'Escolher datas': the range's two ends, in São Paulo days. */
const DATE_FIELDS = [
  { name: 'de', label: 'De' },
  { name: 'ate', label: 'Até' },
] as const;

/** The days a chosen range starts with: from the 1st of this month to today (São Paulo). */
function defaultRange(): { de: string; ate: string } {
  const now = new Date();
  return { de: statementRange({ periodo: 'este-mes' }, now).firstDay ?? saoPauloDay(now), ate: saoPauloDay(now) };
}

interface StatementFilterBarProps {
  /** The URL's filters as typed. */
  form: StatementFilterForm;
  /** The same when valid (contract statementFilters), else null: the fields then say what is wrong. */
  applied: StatementFilters | null;
  onApply: (filters: StatementFilters) => void;
  /** Decision 79: the plates, cost centres and Motoristas the person may filter by (api/whose.ts). */
  whose: WhoseOptions;
  /** The server's refusal of the plate, cost centre or Motorista in the address (none of this account's), said on the select. */
  whoseRefusal: string | null;
  /** The export buttons: at the row's end on a wide screen, under the 'Filtros' row on a phone. */
  actions: ReactNode;
}

/**
 * Issue 12: the period (Todo o período, Este mês, Mês passado, Escolher datas -> 'De' and 'Até',
 * São Paulo days) and the kind of movement; decision 79: one plate, cost centre or Motorista
 * (WhoseSelect). Each applies when chosen, but the dates: they wait for 'Aplicar'.
 * Everything is checked by the contract's statementFilters, its messages on the fields. On a phone
 * the controls fold under a 'Filtros' button that shows the active filters.
 */
export function StatementFilterBar({ form, applied, onApply, whose, whoseRefusal, actions }: StatementFilterBarProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const chipsId = useId();
  const {
    control,
    register,
    handleSubmit,
    reset,
    trigger,
    getValues,
    setValue,
    formState: { errors },
  } = useForm<StatementFilterForm, unknown, StatementFilters>({ resolver, defaultValues: form });
  const periodo = useWatch({ control, name: 'periodo' });
  const [placa, centro, motorista] = useWatch({ control, name: WHOSE_FILTERS });
  const whoseValue = whoseValueOf({ placa, centro, motorista });

  // The URL is the truth (reload, back, a shared link): the form follows it and says what is wrong
  // with it. A field the driver changed since (a second choice made before the first one's address
  // arrived) is kept: resetting it lost that choice, the period went back to 'Todo o período'.
  useEffect(() => {
    reset(form, { keepDirtyValues: true });
    if (!applied) void trigger();
  }, [form, applied, reset, trigger]);

  const submit = handleSubmit((filters) => onApply(filters));

  const onPeriodChange = (value: string) => {
    if (value !== 'intervalo') {
      void submit();
      return;
    }
    // The dates wait for 'Aplicar'; they start as this month so far.
    const range = defaultRange();
    if (!getValues('de')) setValue('de', range.de);
    if (!getValues('ate')) setValue('ate', range.ate);
  };

  // One of them at a time: the others are emptied.
  const onWhoseChange = (value: string | null) => {
    const fields = whoseFields(value);
    for (const field of WHOSE_FILTERS) setValue(field, fields[field], { shouldDirty: true });
    void submit();
  };

  // Filters the contract (or the server, for a plate, centre or Motorista not of this account)
  // refuses keep the controls open: their fields say what is wrong.
  const shown = open || applied === null || whoseRefusal !== null;
  const labels = applied ? filterLabels(applied) : null;
  const appliedWhose = applied ? whoseValueOf(applied) : null;
  const canClear = applied === null || hasFilters(applied);
  const whoseError = errors.placa?.message ?? errors.centro?.message ?? errors.motorista?.message ?? whoseRefusal ?? undefined;

  return (
    <div className={classes.bar}>
      <div className={classes.toggleRow}>
        <Button
          variant="default"
          size="sm"
          leftSection={<IconAdjustmentsHorizontal size={18} aria-hidden />}
          rightSection={<IconChevronDown size={16} aria-hidden style={{ transform: shown ? 'rotate(180deg)' : undefined }} />}
          aria-expanded={shown}
          aria-controls={panelId}
          aria-describedby={labels ? chipsId : undefined}
          onClick={() => setOpen(!shown)}
        >
          Filtros
        </Button>
        {labels ? (
          <span id={chipsId} className={classes.chips}>
            <Badge variant="light" size="lg" tt="none" fw={600}>
              {labels.period}
            </Badge>
            <Badge variant="light" size="lg" tt="none" fw={600}>
              {labels.kind}
            </Badge>
            {appliedWhose ? (
              <Badge variant="light" size="lg" tt="none" fw={600} className={classes.whoseChip}>
                {whoseOptionOf(appliedWhose, whose.groups).label}
              </Badge>
            ) : null}
          </span>
        ) : null}
      </div>

      <PrerenderedForm
        id={panelId}
        className={classes.panel}
        data-open={shown}
        onSubmit={(event) => void submit(event)}
        aria-label="Filtrar extrato"
      >
        <NativeSelect
          className={classes.select}
          size="md"
          label="Período"
          data={periodOptions}
          error={errors.periodo?.message}
          {...register('periodo', { onChange: (event: { target: { value: string } }) => onPeriodChange(event.target.value) })}
        />
        {periodo === 'intervalo' ? (
          <div className={classes.range}>
            {DATE_FIELDS.map(({ name, label }) => (
              <TextInput
                key={name}
                className={classes.date}
                type="date"
                label={label}
                min="2000-01-01"
                max="2100-12-31"
                error={errors[name]?.message}
                {...register(name)}
              />
            ))}
            <Button type="submit" className={classes.apply}>
              Aplicar
            </Button>
          </div>
        ) : null}
        <NativeSelect
          className={classes.select}
          size="md"
          label="Tipo"
          data={kindOptions}
          error={errors.tipo?.message}
          {...register('tipo', { onChange: () => void submit() })}
        />
        <WhoseSelect options={whose} value={whoseValue} onChange={onWhoseChange} error={whoseError} />
        {canClear ? (
          <Button
            variant="subtle"
            leftSection={<IconFilterOff size={18} aria-hidden />}
            onClick={() => {
              // Also the dates typed and not applied: 'Limpar' empties everything.
              reset(readFilterForm(new URLSearchParams()));
              onApply(NO_FILTERS);
            }}
          >
            Limpar filtros
          </Button>
        ) : null}
      </PrerenderedForm>

      {actions}
    </div>
  );
}
