import type { Trx } from '../../db/connection.js';

/**
 * The tag operators (Taggy, SemParar, MoveMais, ConectCar, Veloe) behind one port (founding architecture §5).
 * Every call runs inside the caller's transaction: the `local` gateway writes the operator side in
 * the same database, so a refused debit rolls the operator change back too. A remote gateway
 * would ignore `trx` and be called before the local commit.
 */
export interface OperatorContext {
  trx: Trx;
}

export interface OperatorRegistration {
  serialNumber: string;
  operatorCnpj: string;
  licensePlate: string;
  holderDocument: string;
  axles: number;
  vehicleType: number;
  invoiceGroupCode: string;
  /** A tag the operator itself manages (demo data, partner feeds); registered inactive. */
  ownership: 'own' | 'operator';
}

/** The operator refused the call: its Mensagem is shown to the driver. */
export class OperatorRefusal extends Error {
  constructor(
    message: string,
    /** 'not-found': an unknown serial; 'conflict': the tag's state or the serial forbids it. */
    readonly kind: 'not-found' | 'conflict' = 'conflict',
  ) {
    super(message);
  }
}

/** Every method answers the serial's status code after the call (null = available for activation). */
export interface TagOperatorGateway {
  readonly name: string;
  register(ctx: OperatorContext, tag: OperatorRegistration): Promise<number | null>;
  activate(ctx: OperatorContext, serialNumber: string): Promise<number | null>;
  /** 200 by the driver, 204 for an unpaid monthly fee (founding decision 12). */
  block(ctx: OperatorContext, serialNumber: string, code: 200 | 204): Promise<number | null>;
  release(ctx: OperatorContext, serialNumber: string): Promise<number | null>;
  /**
   * 300 by the driver (302 is written by replace). A serial never activated is withdrawn instead:
   * afterwards `status` answers undefined and the serial can be registered again.
   */
  cancel(ctx: OperatorContext, serialNumber: string): Promise<number | null>;
  /** The old serial becomes 302; the new one takes over its status. Answers the new serial's status. */
  replace(ctx: OperatorContext, serialNumber: string, newSerialNumber: string): Promise<number | null>;
  /** The serial leaves the driver's account (inactive or cancelled only). */
  remove(ctx: OperatorContext, serialNumber: string): Promise<void>;
  /** undefined when the operator does not know the serial. */
  status(ctx: OperatorContext, serialNumber: string): Promise<number | null | undefined>;
}
