/** Query keys of the auth feature (the term status read right after signing in). */
export const authKeys = {
  all: ['auth'] as const,
  termStatus: (userId: number) => [...authKeys.all, 'termos', 'status', userId] as const,
};
