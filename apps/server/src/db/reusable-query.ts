import type { Compilable, Kysely } from 'kysely';
import type { Database } from './schema';

const SLOT = '\u0000embudo-slot:';

type Value = string | number | null;

/**
 * A query built and compiled once, then run many times with new values. Building and compiling a
 * Kysely query costs more than running a small indexed read, and the tracking reads run once per event.
 * `build` gets a stand-in for each named value; they are found again in the compiled parameters, so
 * their order in the SQL does not matter.
 */
export function reusableQuery<Name extends string, Row>(
  db: Kysely<Database>,
  names: readonly Name[],
  build: (values: Record<Name, string>) => Compilable<Row>,
): (values: Record<Name, Value>) => Promise<Row[]> {
  const standIns = Object.fromEntries(names.map((name) => [name, `${SLOT}${name}`])) as Record<Name, string>;
  const compiled = build(standIns).compile();
  const slots = compiled.parameters.map((parameter) =>
    typeof parameter === 'string' && parameter.startsWith(SLOT)
      ? (parameter.slice(SLOT.length) as Name)
      : null,
  );
  for (const name of names) {
    if (!slots.includes(name)) throw new Error(`reusableQuery: the value ${name} is not used in the query`);
  }
  return async (values) => {
    const parameters = compiled.parameters.map((parameter, i) => {
      const slot = slots[i];
      return slot === null || slot === undefined ? parameter : values[slot];
    });
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
