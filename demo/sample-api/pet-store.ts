// The sample API's data: an in-memory list of pets, seeded on start, bounded so a loop of POSTs cannot grow it forever.

export type PetStatus = 'available' | 'pending' | 'adopted';

export interface Pet {
  id: number;
  name: string;
  tag: string;
  status: PetStatus;
}

/** What a client may send for a new or replaced pet. */
export type PetInput = Omit<Pet, 'id'>;

/** What is wrong with one field of a pet: `pointer` is a JSON Pointer into the body (`""` for the whole body). */
export interface PetProblem {
  pointer: string;
  detail: string;
}

/** A body that is not a pet; `problems` name each bad field. */
export class PetValidationError extends Error {
  readonly code = 'ERR_DEMO_INVALID_PET';

  constructor(readonly problems: PetProblem[]) {
    super(`The pet is invalid: ${problems.map((problem) => problem.detail).join('; ')}.`);
    this.name = 'PetValidationError';
  }
}

export const PET_STATUSES: readonly PetStatus[] = ['available', 'pending', 'adopted'];
const MAX_PETS = 500;

const SEED: PetInput[] = [
  { name: 'Biscuit', tag: 'dog', status: 'available' },
  { name: 'Marmalade', tag: 'cat', status: 'available' },
  { name: 'Pip', tag: 'hamster', status: 'pending' },
  { name: 'Captain Whiskers', tag: 'cat', status: 'adopted' },
  { name: 'Nori', tag: 'turtle', status: 'available' },
];

export class PetStore {
  #pets = new Map<number, Pet>();
  #nextId = 1;

  constructor(seed: readonly PetInput[] = SEED) {
    for (const pet of seed) this.add(pet);
  }

  list(filter: { tag?: string | null; status?: string | null; limit?: number } = {}): Pet[] {
    const matching = [...this.#pets.values()].filter((pet) => (!filter.tag || pet.tag === filter.tag) && (!filter.status || pet.status === filter.status));
    return matching.slice(0, filter.limit ?? matching.length);
  }

  get(id: number): Pet | undefined {
    return this.#pets.get(id);
  }

  /** Adds a pet; the oldest one goes when the store is full. */
  add(input: PetInput): Pet {
    if (this.#pets.size >= MAX_PETS) this.#pets.delete(this.#pets.keys().next().value as number);
    const pet = { id: this.#nextId++, ...input };
    this.#pets.set(pet.id, pet);
    return pet;
  }

  replace(id: number, input: PetInput): Pet | undefined {
    if (!this.#pets.has(id)) return undefined;
    const pet = { id, ...input };
    this.#pets.set(id, pet);
    return pet;
  }

  delete(id: number): boolean {
    return this.#pets.delete(id);
  }
}

/** Checks a parsed JSON body; `status` defaults to `available`. */
export function parsePetInput(value: unknown): PetInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new PetValidationError([{ pointer: '', detail: 'the body must be a JSON object such as {"name": "Rex", "tag": "dog"}' }]);
  }
  const { name, tag, status = 'available' } = value as Record<string, unknown>;
  const problems: PetProblem[] = [];
  if (typeof name !== 'string' || name.trim() === '' || name.length > 100) problems.push({ pointer: '/name', detail: 'name must be a non-empty string of at most 100 characters' });
  if (typeof tag !== 'string' || !/^[a-z-]{1,30}$/.test(tag)) problems.push({ pointer: '/tag', detail: 'tag must be 1 to 30 lowercase letters or dashes, e.g. "dog"' });
  if (!PET_STATUSES.includes(status as PetStatus)) problems.push({ pointer: '/status', detail: `status must be one of ${PET_STATUSES.join(', ')}` });
  if (problems.length > 0) throw new PetValidationError(problems);
  return { name: (name as string).trim(), tag: tag as string, status: status as PetStatus };
}
