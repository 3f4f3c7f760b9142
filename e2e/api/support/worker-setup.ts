import { inject } from 'vitest';

// Test files create their own accounts and tokens directly in the run's database.
process.env.DATABASE_URL = inject('databaseUrl');
process.env.LOG_LEVEL ??= 'warn';
