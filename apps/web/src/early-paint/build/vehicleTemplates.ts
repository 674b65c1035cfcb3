/**
 * The tag detail page's vehicle as the app draws it, cut into <template>s the page's first script
 * puts together (scripts/paintVehicle.ts) for the vehicle it asked for, before the app arrives; the
 * app then hydrates exactly that markup (issue 11: the page's largest text, the tag state's paragraph, is
 * data). The build draws the whole page once per tag status code and owner, with tokens where the
 * vehicle's own values go, and keeps each distinct card once:
 * - 'frame': the element around the cards (VEHICLE_VIEW_ATTRIBUTE), empty;
 * - 'vehicle': the vehicle's card (the same for every tag);
 * - 'no-tag': the card of a vehicle without a tag;
 * - 'tag': the tag's card, by status code (tagCardKey);
 * - 'actions': what the driver can do, by status code and owner (tagActionsKey).
 * What the app draws before the catalogues answer (the model's and the operator's names as '...')
 * is what the templates hold: at hydration the app has not read them either.
 */
import type { VehicleDetail, VehicleTag } from '@portal/contract';
import { formatCpfCnpj, formatSerial, OWNERSHIP_TYPES, TAG_STATUS } from '@portal/domain';
import { JSDOM } from 'jsdom';
import * as markup from '../vehicleMarkup';

/** Every code the domain names, and no code (an inactive tag); any other code is drawn by the app alone. */
const STATUS_CODES: readonly (number | null)[] = [null, ...Object.values(TAG_STATUS)];

function seedVehicle(tag: VehicleTag | null): VehicleDetail {
  return {
    id: 0,
    LicensePlate: markup.PLATE_TOKEN,
    CpfCnpjAntt: markup.CPF_CNPJ_TOKEN,
    RntrcAntt: markup.RNTRC_TOKEN,
    // A number in the contract, drawn as its text: the token stands in for that text.
    Axles: markup.AXLES_TOKEN as unknown as number,
    vehicleType: 2,
    modelo: '',
    tag,
  };
}

const seedTag = (statusCode: number | null, ownershipType: VehicleTag['ownershipType']): VehicleTag => ({
  serialNumber: markup.SERIAL_TOKEN,
  Operadora: '',
  statusCode,
  ownershipType,
});

/** The tokens the app drew through a formatter, as the painter finds them: the token itself. */
const FORMATTED_TOKENS = new Map([
  [formatSerial(markup.SERIAL_TOKEN), markup.SERIAL_TOKEN],
  [formatCpfCnpj(markup.CPF_CNPJ_TOKEN), markup.CPF_CNPJ_TOKEN],
]);

/**
 * The cards of the element drawn for a vehicle, each as markup: a card is an element with the
 * <style>s Mantine draws just before it (its responsive padding, named by the card's place).
 */
function cardsOf(view: Element): string[] {
  const cards: string[] = [];
  let styles = '';
  for (const child of view.children) {
    if (child.localName === 'style') styles += child.outerHTML;
    else {
      cards.push(styles + child.outerHTML);
      styles = '';
    }
  }
  if (styles) throw new Error("prerender: a <style> after the vehicle's last card");
  return cards;
}

/** The element the app drew for the vehicle, in the page drawn for it, with the tokens as they are. */
function drawnView(drawPage: (vehicle: VehicleDetail) => string, vehicle: VehicleDetail): Element {
  const view = JSDOM.fragment(drawPage(vehicle)).querySelector(`[${markup.VEHICLE_VIEW_ATTRIBUTE}]`);
  if (!view) throw new Error(`prerender: no [${markup.VEHICLE_VIEW_ATTRIBUTE}] in the tag detail page drawn with a vehicle`);
  // The cards are put together as elements: text between them would be lost.
  if (view.childNodes.length !== view.children.length) throw new Error("prerender: text between the vehicle's cards");
  const texts = view.ownerDocument.createTreeWalker(view, 4 /* NodeFilter.SHOW_TEXT */);
  for (let text = texts.nextNode(); text; text = texts.nextNode()) {
    const token = FORMATTED_TOKENS.get(text.nodeValue ?? '');
    if (token) text.nodeValue = token;
  }
  return view;
}

/** Each distinct markup once, with every key it is drawn for; a key drawn two ways is an error. */
class Parts {
  private readonly keysByHtml = new Map<string, string[]>();
  private readonly htmlByKey = new Map<string, string>();

  add(key: string, html: string): void {
    const known = this.htmlByKey.get(key);
    if (known !== undefined && known !== html) throw new Error(`prerender: the vehicle part ${key} is drawn two ways`);
    if (known !== undefined) return;
    this.htmlByKey.set(key, html);
    this.keysByHtml.set(html, [...(this.keysByHtml.get(html) ?? []), key]);
  }

  templates(part: string): string[] {
    return [...this.keysByHtml].map(
      ([html, keys]) =>
        `<template ${markup.VEHICLE_PART_ATTRIBUTE}="${part}" ${markup.VEHICLE_KEYS_ATTRIBUTE}="${keys.join(' ')}">${html}</template>`,
    );
  }
}

const template = (part: string, html: string) => `<template ${markup.VEHICLE_PART_ATTRIBUTE}="${part}">${html}</template>`;

/** The templates, from the page drawn (as the app hydrates it) with the vehicle in the query cache. */
export function vehicleTemplates(drawPage: (vehicle: VehicleDetail) => string): string {
  const withoutTag = drawnView(drawPage, seedVehicle(null));
  const [vehicleCard, noTagCard, ...extra] = cardsOf(withoutTag);
  if (!vehicleCard || !noTagCard || extra.length) throw new Error('prerender: a vehicle without a tag is not its card and the no-tag card');
  const frame = (withoutTag.cloneNode(false) as Element).outerHTML;
  const tagCards = new Parts();
  const actions = new Parts();
  for (const statusCode of STATUS_CODES) {
    for (const ownershipType of OWNERSHIP_TYPES) {
      const view = drawnView(drawPage, seedVehicle(seedTag(statusCode, ownershipType)));
      const [vehicle, tag, tagActions, ...more] = cardsOf(view);
      if (vehicle !== vehicleCard || (view.cloneNode(false) as Element).outerHTML !== frame || !tag || !tagActions || more.length) {
        throw new Error(
          `prerender: a vehicle with a tag (${String(statusCode)}, ${ownershipType}) is not the frame, its card, the tag's and the actions`,
        );
      }
      tagCards.add(markup.tagCardKey(statusCode), tag);
      actions.add(markup.tagActionsKey(statusCode, ownershipType), tagActions);
    }
  }
  return [
    template('frame', frame),
    template('vehicle', vehicleCard),
    template('no-tag', noTagCard),
    ...tagCards.templates('tag'),
    ...actions.templates('actions'),
  ].join('');
}
