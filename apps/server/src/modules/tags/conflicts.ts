import { isUniqueViolation } from '../../db/connection.js';

/**
 * The unique indexes a tag or vehicle write breaks when a concurrent request got there first
 * (migrations 003 and 006), with the columns SQLite names for each. The local operator's key on
 * the serial is one of them: with the `local` gateway a serial race breaks it before tags_serial_live.
 */
const LIVE_INDEXES = {
  tags_serial_live: 'tags.serial_number',
  tags_vehicle_live: 'tags.vehicle_id',
  vehicles_driver_plate_live: 'vehicles.driver_id, vehicles.license_plate',
  operator_tags_pkey: 'operator_tags.serial_number',
} as const;

export type LiveIndex = keyof typeof LIVE_INDEXES;

const SQLITE_UNIQUE = /^UNIQUE constraint failed: (.+)$/;

function isLiveIndex(name: string): name is LiveIndex {
  return Object.hasOwn(LIVE_INDEXES, name);
}

/**
 * Which of those indexes a unique violation broke, or null for any other error. PostgreSQL names
 * the index (`constraint`); SQLite only lists its columns ('UNIQUE constraint failed: tags.vehicle_id').
 */
export function brokenIndex(error: unknown): LiveIndex | null {
  if (!isUniqueViolation(error)) return null;
  const { constraint, message } = error as { constraint?: unknown; message?: unknown };
  if (typeof constraint === 'string') return isLiveIndex(constraint) ? constraint : null;
  const columns = typeof message === 'string' ? SQLITE_UNIQUE.exec(message)?.[1] : undefined;
  for (const [index, indexColumns] of Object.entries(LIVE_INDEXES)) {
    if (indexColumns === columns && isLiveIndex(index)) return index;
  }
  return null;
}
