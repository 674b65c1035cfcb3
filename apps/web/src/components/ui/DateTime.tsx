import { followsSaoPauloZoneData, onSaoPauloZoneData } from '@portal/domain';
import { useSyncExternalStore } from 'react';
import { formatDateTimeOrNull } from '../../lib/format';

interface DateTimeProps {
  value: Date | string | null | undefined;
  /** Shown when the value is missing or not a valid ISO 8601 date. */
  fallback?: string;
}

/**
 * DD/MM/YYYY HH:mm:ss in São Paulo time (domain formatDateTime), inside a <time> element; drawn again
 * if the zone's data turns out to read a summer time (lib/zoneData.ts).
 */
export function DateTime({ value, fallback = '—' }: DateTimeProps) {
  useSyncExternalStore(onSaoPauloZoneData, followsSaoPauloZoneData, followsSaoPauloZoneData);
  const text = formatDateTimeOrNull(value);
  if (text === null) return <span>{fallback}</span>;
  const iso = value instanceof Date ? value.toISOString() : (value ?? undefined);
  return (
    <time dateTime={iso} className="tabular-nums">
      {text}
    </time>
  );
}
