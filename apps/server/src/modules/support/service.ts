import { serverMessages } from '@portal/domain';

/** Founding decision 17: the support link opens a WhatsApp chat with the configured number. */
export function whatsappUrl(number: string): string {
  return `https://wa.me/${number}?text=${encodeURIComponent(serverMessages.support.greeting)}`;
}
