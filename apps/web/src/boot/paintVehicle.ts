/**
 * boot.ts's side of the tag detail page's early vehicle: the cards put together from the build's
 * templates (src/prerender/vehicleTemplates.ts) and the vehicle's values written in as the app
 * writes them. An entry of its own (vite.config.ts) that boot.ts loads on that page alone, beside the
 * vehicle's read: it imports nothing (one request; the build checks). The names of
 * earlyVehicleMarkup.ts are repeated; test/prerender.test.tsx keeps them equal, and proves that what
 * this paints is what the app draws for the same vehicle.
 */

const VEHICLE_PART_ATTRIBUTE = 'data-vehicle-part';
const VEHICLE_KEYS_ATTRIBUTE = 'data-vehicle-keys';
const PLATE_TOKEN = '__VEHICLE_PLATE__';
const AXLES_TOKEN = '__VEHICLE_AXLES__';
const RNTRC_TOKEN = '__VEHICLE_RNTRC__';
const CPF_CNPJ_TOKEN = '__VEHICLE_CPFCNPJ__';
const SERIAL_TOKEN = '__TAG_SERIAL__';

interface EarlyTag {
  serialNumber: string;
  statusCode: number | null;
  ownershipType: string;
}

interface EarlyVehicle {
  LicensePlate: string;
  CpfCnpjAntt: string;
  RntrcAntt: string;
  Axles: number;
  tag: EarlyTag | null;
}

const chars = (value: string) => value.toUpperCase().replace(/[^0-9A-Z]/g, '');

/** The domain's formatSerial: groups of four, at most 19 characters. */
export function serialText(serial: string): string {
  return (chars(serial).match(/.{1,4}/g) ?? []).join(' ').slice(0, 19);
}

/** The domain's formatCpfCnpj: 999.999.999-99 or AA.AAA.AAA/AAAA-99, a partial one as far as it goes. */
export function documentText(value: string): string {
  const c = chars(value);
  const cut = (...sizes: number[]) => {
    let at = 0;
    return sizes.map((size) => c.slice(at, (at += size)));
  };
  if (c.length <= 11) {
    const [a, b, d, e] = cut(3, 3, 3, 2);
    return `${a}${b ? `.${b}` : ''}${d ? `.${d}` : ''}${e ? `-${e}` : ''}`;
  }
  const [a, b, d, e, f] = cut(2, 3, 3, 4, 2);
  return `${a}.${b}.${d}/${e}${f ? `-${f}` : ''}`;
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** The answer's vehicle, when it has every value the cards draw (else the app draws it). */
function vehicleOf(answer: unknown): EarlyVehicle | null {
  const vehicle = (answer as { Dados?: Partial<EarlyVehicle> } | null)?.Dados;
  if (!vehicle || !isText(vehicle.LicensePlate) || !isText(vehicle.CpfCnpjAntt) || !isText(vehicle.RntrcAntt) || !Number.isInteger(vehicle.Axles)) return null;
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
    ? [part('vehicle'), part('tag', String(tag.statusCode)), part('actions', `${String(tag.statusCode)}:${tag.ownershipType}`)]
    : [part('vehicle'), part('no-tag')];
  const frame = part('frame')?.firstElementChild;
  if (!frame || cards.some((card) => !card)) return false;
  frame.append(...(cards as DocumentFragment[]));

  const values: Record<string, string> = {
    [PLATE_TOKEN]: vehicle.LicensePlate,
    [AXLES_TOKEN]: String(vehicle.Axles),
    [RNTRC_TOKEN]: vehicle.RntrcAntt || '—',
    [CPF_CNPJ_TOKEN]: vehicle.CpfCnpjAntt ? documentText(vehicle.CpfCnpjAntt) : '—',
    [SERIAL_TOKEN]: tag ? serialText(tag.serialNumber) : '',
  };
  const fill = (text: string) => text.replace(/__(VEHICLE|TAG)_[A-Z]+__/g, (token) => values[token] ?? token);
  // Text and attributes are written as values, never parsed: nothing in an answer becomes markup.
  const texts = slot.ownerDocument.createTreeWalker(frame, NodeFilter.SHOW_TEXT);
  for (let text = texts.nextNode(); text; text = texts.nextNode()) text.nodeValue = fill(text.nodeValue ?? '');
  for (const element of [frame, ...frame.querySelectorAll('*')]) {
    for (const attribute of element.attributes) if (attribute.value.includes('__')) attribute.value = fill(attribute.value);
  }
  slot.replaceWith(frame);
  return true;
}
