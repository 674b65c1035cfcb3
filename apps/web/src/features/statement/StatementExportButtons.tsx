import { Button, VisuallyHidden } from '@mantine/core';
import type { StatementExportFormat, StatementFilters } from '@portal/contract';
import { IconFileSpreadsheet, IconFileTypePdf } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ERROR_TOAST_TITLE, toast } from '../../components/ui/toast';
import { errorMessage } from '../../lib/errors';
import { isApiError } from '../../lib/http';
import { OFFLINE_REASON_ID, useOnline } from '../../lib/offline';
import { useStatementExport } from './api/export';
import classes from './StatementToolbar.module.css';

const EXPORTS: { formato: StatementExportFormat; label: string; icon: ReactNode }[] = [
  { formato: 'csv', label: 'CSV', icon: <IconFileSpreadsheet size={20} aria-hidden /> },
  { formato: 'pdf', label: 'PDF', icon: <IconFileTypePdf size={20} aria-hidden /> },
];

/**
 * Issue 12: 'Exportar CSV' and 'Exportar PDF': the movements of the filters on screen as a CSV (Excel pt-BR) or a PDF statement,
 * downloaded under the server's file name. Needs the network (disabled offline, saying why);
 * the button of the file on its way spins; a refusal is told in Portuguese.
 */
export function StatementExportButtons({ filters }: { filters: StatementFilters | null }) {
  const online = useOnline();
  const exporter = useStatementExport();
  const pending = exporter.isPending ? exporter.variables.formato : null;

  const run = (formato: StatementExportFormat) => {
    if (!filters) return;
    exporter.mutate(
      { formato, filters },
      {
        onError: (error) => {
          // A 401 is already on its way to /login.
          if (isApiError(error) && error.isUnauthorized) return;
          toast.error(errorMessage(error), { title: ERROR_TOAST_TITLE });
        },
      },
    );
  };

  return (
    <div className={classes.actions} role="group" aria-label="Exportar extrato">
      <span className={classes.exportCaption} aria-hidden>
        Exportar
      </span>
      {EXPORTS.map(({ formato, label, icon }) => (
        <Button
          key={formato}
          className={classes.exportButton}
          variant="light"
          leftSection={icon}
          loading={pending === formato}
          disabled={!online || filters === null || (pending !== null && pending !== formato)}
          aria-describedby={online ? undefined : OFFLINE_REASON_ID}
          onClick={() => run(formato)}
          aria-label={`Exportar ${label}`}
        >
          {/* On a phone the word shows once, before the buttons. */}
          <span className={classes.exportVerb}>Exportar</span>
          {label}
        </Button>
      ))}
      <VisuallyHidden role="status" aria-live="polite">
        {pending ? 'Preparando o arquivo do extrato...' : ''}
      </VisuallyHidden>
    </div>
  );
}
