import { hash, verify } from '@node-rs/argon2';

export interface Argon2Cost {
  memoryCost: number;
  timeCost: number;
}

export class PasswordHasher {
  private dummy: Promise<string> | null = null;

  constructor(private readonly cost: Argon2Cost) {}

  /** argon2id: the library's default algorithm (a test checks the $argon2id$ prefix). */
  hash(password: string): Promise<string> {
    return hash(password, { memoryCost: this.cost.memoryCost, timeCost: this.cost.timeCost, parallelism: 1 });
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }

  /** Spends the same time as a real check when the account does not exist, then fails. */
  async verifyDummy(password: string): Promise<false> {
    this.dummy ??= this.hash('conta-inexistente');
    await this.verify(await this.dummy, password);
    return false;
  }
}
