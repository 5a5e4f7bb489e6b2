import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/**
 * What Kysely's migrator asks of the database (does the migration schema and table exist), answered
 * from the connection's own schema only. Kysely's stock PostgreSQL introspector reads every table of
 * every schema and calls pg_get_serial_sequence on each: when another schema is dropped meanwhile
 * (another database user's, or a parallel test's), that call fails with `schema "…" does not exist`
 * and the migration with it. Here nothing outside the current schema is read.
 */
export class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(this.db);
    return rows.flatMap((row) => (row.name === null ? [] : [{ name: row.name }]));
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ schema: string; name: string; isView: boolean }>`
      select table_schema as schema, table_name as name, table_type = 'VIEW' as "isView"
      from information_schema.tables
      where table_schema = current_schema()
      order by table_name`.execute(this.db);
    return rows.map((row) => ({ ...row, columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/** PostgreSQL, introspected through the current schema alone (CurrentSchemaIntrospector). */
export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}
