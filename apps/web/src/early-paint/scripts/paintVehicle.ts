/**
 * boot.ts's side of the tag detail page's early vehicle: the cards put together from the build's
 * templates (build/vehicleTemplates.ts) and the vehicle's values written in as the app writes them
 * (the domain's formatSerial and formatCpfCnpj, the very functions the app's cards call). A script
 * of its own that boot.ts loads on that page alone, beside the vehicle's read, built on its own into
 * one file (build/earlyScripts.ts): every other page's first script stays small.
 * test/early-paint/prerender.test.tsx proves that what this paints is what the app draws for the same vehicle.
 */

import { formatCpfCnpj, formatSerial } from '@portal/domain';
import {
  AXLES_TOKEN,
  CPF_CNPJ_TOKEN,
  PLATE_TOKEN,
  RNTRC_TOKEN,
  SERIAL_TOKEN,
  tagActionsKey,
  tagCardKey,
  VEHICLE_KEYS_ATTRIBUTE,
  VEHICLE_PART_ATTRIBUTE,
} from '../vehicleMarkup';

interface EarlyTag {
  serialNumber: string;
  statusCode: number | null;
  ownershipType: string;
  /** Decision 78: its card says the budget blocked it; no template is built for it. */
  bloqueioOrcamento?: boolean;
}

interface EarlyVehicle {
  LicensePlate: string;
  CpfCnpjAntt: string;
  RntrcAntt: string;
  Axles: number;
  tag: EarlyTag | null;
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** The answer's vehicle, when it has every value the cards draw (else the app draws it). */
function vehicleOf(answer: unknown): EarlyVehicle | null {
  const vehicle = (answer as { Dados?: Partial<EarlyVehicle> } | null)?.Dados;
  if (
    !vehicle ||
    !isText(vehicle.LicensePlate) ||
    !isText(vehicle.CpfCnpjAntt) ||
    !isText(vehicle.RntrcAntt) ||
    !Number.isInteger(vehicle.Axles)
  )
    return null;
  const tag = vehicle.tag;
  if (tag !== null && (typeof tag !== 'object' || !isText(tag.serialNumber) || !isText(tag.ownershipType))) return null;
  if (tag !== null && tag.statusCode !== null && !Number.isInteger(tag.statusCode)) return null;
  return vehicle as EarlyVehicle;
}

/**
 * Puts the vehicle of the answer (GET /api/veiculo/detail/{plate}) where the page says
 * 'Carregando...' (`slot`), in the app's markup. False, painting nothing, when a template is missing
 * (a status code the build did not draw) or the answer is not a vehicle.
 */
export function paintVehicle(slot: Element, answer: unknown): boolean {
  const vehicle = vehicleOf(answer);
  if (!vehicle) return false;
  /** A template's elements, cloned (a card comes with the <style> Mantine draws before it). */
  const part = (name: string, key?: string) => {
    const keys = key === undefined ? '' : `[${VEHICLE_KEYS_ATTRIBUTE}~="${key}"]`;
    const template = slot.ownerDocument.querySelector<HTMLTemplateElement>(`template[${VEHICLE_PART_ATTRIBUTE}="${name}"]${keys}`);
    return template?.content.cloneNode(true) as DocumentFragment | undefined;
  };
  const { tag } = vehicle;
  const cards = tag
    ? [
        part('vehicle'),
        part('tag', tagCardKey(tag.statusCode, tag.bloqueioOrcamento === true)),
        part('actions', tagActionsKey(tag.statusCode, tag.ownershipType)),
      ]
    : [part('vehicle'), part('no-tag')];
  const frame = part('frame')?.firstElementChild;
  if (!frame || cards.some((card) => !card)) return false;
  frame.append(...(cards as DocumentFragment[]));

  const values: Record<string, string> = {
    [PLATE_TOKEN]: vehicle.LicensePlate,
    [AXLES_TOKEN]: String(vehicle.Axles),
    [RNTRC_TOKEN]: vehicle.RntrcAntt || '—',
    [CPF_CNPJ_TOKEN]: vehicle.CpfCnpjAntt ? formatCpfCnpj(vehicle.CpfCnpjAntt) : '—',
    [SERIAL_TOKEN]: tag ? formatSerial(tag.serialNumber) : '',
  };
  const tokens = new RegExp(Object.keys(values).join('|'), 'g');
  const fill = (text: string) => text.replace(tokens, (token) => values[token] ?? token);
  // Text and attributes are written as values, never parsed: nothing in an answer becomes markup.
  const texts = slot.ownerDocument.createTreeWalker(frame, NodeFilter.SHOW_TEXT);
  for (let text = texts.nextNode(); text; text = texts.nextNode()) text.nodeValue = fill(text.nodeValue ?? '');
  for (const element of [frame, ...frame.querySelectorAll('*')]) {
    for (const attribute of element.attributes) {
      const filled = fill(attribute.value);
      if (filled !== attribute.value) attribute.value = filled;
    }
  }
  slot.replaceWith(frame);
  return true;
}
