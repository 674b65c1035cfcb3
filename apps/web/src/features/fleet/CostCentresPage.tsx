import { Badge, Button, Paper, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { api, type CostCentre } from '@portal/contract';
import { fleetScreens } from '@portal/domain';
import { IconDeviceFloppy, IconFileSpreadsheet, IconFileTypePdf, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { CardList } from '../../components/ui/CardList';
import { confirmAction } from '../../components/ui/confirm';
import { isListLoading, isListNotLoaded } from '../../components/ui/DataTable';
import { NetworkButton, NetworkSubmitButton } from '../../components/ui/NetworkSubmitButton';
import { OfflineNotice } from '../../components/ui/OfflineNotice';
import { TitledSection } from '../../components/ui/TitledSection';
import { toastAnswer, toastFailure, toastFormAnswer } from '../../components/ui/toastFailure';
import { useMayCall } from '../../lib/actingAccount';
import { useCostCentreReport, useCreateCostCentre, useRemoveCostCentre, useUpdateCostCentre, type ReportFormat } from './api/mutations';
import { useCostCentres } from './api/queries';
import { CompanyPage } from './CompanyOnly';
import {
  COST_CENTRE_SERVER_FIELDS,
  costCentreResolver,
  emptyCostCentreForm,
  previousMonth,
  reportResolver,
  type CostCentreFormInput,
  type CostCentreFormValues,
  type ReportFormValues,
} from './costCentreForm';
import classes from './FleetPages.module.css';

const t = fleetScreens.costCentres;

interface CostCentreFormProps {
  defaults: CostCentreFormInput;
  /** The call that saves it (create or update), answering the server's Mensagem. */
  save: (values: CostCentreFormValues) => Promise<{ Mensagem: string }>;
  submitLabel: string;
  submitIcon: ReactNode;
  /** After the server took it (the fields start over): an edit closes. */
  onSaved?: () => void;
  /** Beside the submit button ('Voltar' of an edit). */
  extraAction?: ReactNode;
  label: string;
}

/**
 * Nome and Código, checked by the contract's rules before anything is sent (the code goes in
 * capitals); the server's field messages (a code already taken) under their fields, the rest and its
 * Mensagem in a toast.
 */
function CostCentreForm({ defaults, save, submitLabel, submitIcon, onSaved, extraAction, label }: CostCentreFormProps) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CostCentreFormInput, unknown, CostCentreFormValues>({ resolver: costCentreResolver, defaultValues: defaults });

  const onSubmit = handleSubmit((values) =>
    toastFormAnswer(save(values), { setError, fields: COST_CENTRE_SERVER_FIELDS }, () => {
      reset(emptyCostCentreForm);
      onSaved?.();
    }),
  );

  return (
    <form noValidate aria-label={label} onSubmit={(event) => void onSubmit(event)}>
      <Stack gap="md">
        <div className={classes.formFields}>
          <TextInput label={t.name} size="md" autoComplete="off" {...register('nome')} error={errors.nome?.message} />
          <TextInput
            label={t.code}
            size="md"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            {...register('codigo')}
            error={errors.codigo?.message}
          />
        </div>
        <div className={classes.actions}>
          <NetworkSubmitButton loading={isSubmitting} leftSection={submitIcon} maw={{ xs: 320 }}>
            {submitLabel}
          </NetworkSubmitButton>
          {extraAction}
        </div>
      </Stack>
    </form>
  );
}

/** 'Novo centro de custo': for whoever may create one (a Gestor). */
function CreateCostCentre() {
  const create = useCreateCostCentre();
  return (
    <TitledSection id="novo-centro" title={t.createTitle} hint={t.createHint}>
      <CostCentreForm
        label={t.createTitle}
        defaults={emptyCostCentreForm}
        save={(values) => create.mutateAsync(values)}
        submitLabel={t.create}
        submitIcon={<IconPlus size={22} aria-hidden />}
      />
    </TitledSection>
  );
}

/** The report's two files: CSV (also Enter in the month's field) and PDF. */
const REPORT_FILES = [
  { formato: 'csv', type: 'submit', Icon: IconFileSpreadsheet, label: t.downloadCsv, name: t.downloadCsvName },
  { formato: 'pdf', type: 'button', Icon: IconFileTypePdf, label: t.downloadPdf, name: t.downloadPdfName },
] as const;

/**
 * The report of one month of the centre ('AAAA-MM', the last whole month at first), as CSV or PDF,
 * saved under the server's name; needs the network.
 */
function CentreReport({ centre }: { centre: CostCentre }) {
  const report = useCostCentreReport();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ReportFormValues>({ resolver: reportResolver, defaultValues: { mes: previousMonth() } });

  const download = (formato: ReportFormat) =>
    handleSubmit(({ mes }) => report.mutate({ id: centre.id, mes, formato }, { onError: (error) => toastFailure(error) }));

  return (
    <form noValidate aria-label={t.reportLabel(centre.nome)} onSubmit={(event) => void download('csv')(event)}>
      <div className={classes.report}>
        <TextInput
          type="month"
          label={t.month}
          placeholder={t.monthPlaceholder}
          size="md"
          {...register('mes')}
          error={errors.mes?.message}
        />
        {REPORT_FILES.map(({ formato, type, Icon, label, name }) => (
          <NetworkButton
            key={formato}
            type={type}
            variant="light"
            size="md"
            leftSection={<Icon size={20} aria-hidden />}
            loading={report.isPending && report.variables.formato === formato}
            aria-label={name(centre.nome)}
            onClick={type === 'button' ? (event) => void download(formato)(event) : undefined}
          >
            {label}
          </NetworkButton>
        ))}
      </div>
      <VisuallyHidden role="status" aria-live="polite">
        {report.isPending ? t.downloading : ''}
      </VisuallyHidden>
    </form>
  );
}

/** 'Excluir', asked first; the answer takes the centre off the list (its vehicles are left without one). */
function RemoveCentre({ centre }: { centre: CostCentre }) {
  const remove = useRemoveCostCentre();

  const onRemove = async () => {
    const confirmed = await confirmAction({
      title: t.removeTitle,
      message: t.removeQuestion(centre.nome, centre.veiculos),
      confirmLabel: t.remove,
      danger: true,
    });
    if (confirmed) await toastAnswer(remove.mutateAsync(centre.id));
  };

  return (
    <NetworkButton
      variant="light"
      color="red"
      leftSection={<IconTrash size={18} aria-hidden />}
      loading={remove.isPending}
      aria-label={t.removeName(centre.nome)}
      onClick={() => void onRemove()}
    >
      {t.remove}
    </NetworkButton>
  );
}

/** One centre: its name, code and how many vehicles; its report; for a Gestor, 'Editar' (in place) and 'Excluir'. */
function CentreCard({ centre, manages }: { centre: CostCentre; manages: boolean }) {
  const update = useUpdateCostCentre();
  const [editing, setEditing] = useState(false);
  const titleId = useId();
  return (
    <Paper component="article" withBorder radius="md" p="md" aria-labelledby={titleId} data-centre={centre.codigo}>
      <Stack gap="sm">
        <div className={classes.cardHeader}>
          <Title order={2} size="h4" id={titleId} style={{ overflowWrap: 'anywhere' }}>
            {centre.nome}
          </Title>
          <Badge variant="outline" color="gray" size="lg" radius="sm" tt="none" c="dark.8" className="tabular-nums">
            {centre.codigo}
          </Badge>
        </div>
        <Text size="sm" c="gray.7">
          {t.vehicles(centre.veiculos)}
        </Text>
        {editing ? (
          <CostCentreForm
            label={t.editTitle(centre.nome)}
            defaults={{ nome: centre.nome, codigo: centre.codigo }}
            save={(values) => update.mutateAsync({ id: centre.id, ...values })}
            submitLabel={t.save}
            submitIcon={<IconDeviceFloppy size={22} aria-hidden />}
            onSaved={() => setEditing(false)}
            extraAction={
              <Button variant="default" onClick={() => setEditing(false)}>
                {t.back}
              </Button>
            }
          />
        ) : (
          <>
            <CentreReport centre={centre} />
            {manages ? (
              <div className={classes.actions}>
                <Button
                  variant="default"
                  leftSection={<IconPencil size={18} aria-hidden />}
                  aria-label={t.editName(centre.nome)}
                  onClick={() => setEditing(true)}
                >
                  {t.edit}
                </Button>
                <RemoveCentre centre={centre} />
              </div>
            ) : null}
          </>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Decision 77 /empresa/centros-de-custo: the company's cost centres (name, code, how many vehicles),
 * each with its monthly report as CSV or PDF (a Gestor and a Financeiro); a Gestor also creates,
 * edits and removes them (removing asks first). The vehicles are put in a centre on Veículos da frota.
 */
export function CostCentresPage() {
  return (
    <CompanyPage title={t.title} subtitle={t.subtitle} reads={api.costCentres}>
      <CostCentres />
    </CompanyPage>
  );
}

function CostCentres() {
  const { centres, failure } = useCostCentres();
  const manages = useMayCall(api.createCostCentre, api.updateCostCentre, api.removeCostCentre);
  return (
    <>
      <OfflineNotice updatedAt={centres.dataUpdatedAt} />
      {manages ? <CreateCostCentre /> : null}
      <Paper component="section" aria-label={t.listLabel} withBorder shadow="xs" p={{ base: 'xs', sm: 'md' }} radius="lg">
        <CardList
          rows={centres.data?.Centros}
          notLoaded={isListNotLoaded(centres)}
          loading={isListLoading(centres)}
          failure={failure}
          failedText={t.failed}
          emptyText={t.empty}
          cardHeight={180}
          loadingLabel={t.loading}
        >
          {(shown) => (
            <Stack gap="sm">
              {shown.map((centre) => (
                <CentreCard key={centre.id} centre={centre} manages={manages} />
              ))}
            </Stack>
          )}
        </CardList>
      </Paper>
    </>
  );
}
