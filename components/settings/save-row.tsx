'use client';
import type { ReactNode } from 'react';
import { RoleNote } from '@/components/layout/role';
import { Alert, Button, RequestLink } from '@/components/ui';
import type { Permission } from '@/lib/teams/permissions';

/** What a settings form's save is: a mutation's state. */
interface SaveState<T> {
  isPending: boolean;
  isSuccess: boolean;
  isError: boolean;
  data: T | undefined;
  error: unknown;
}

/**
 * A settings form's end: Save (or why this role cannot), what was saved in words, and a refusal with its request id.
 * The form's own fields are its own.
 */
export function SaveRow<T>({
  save,
  canChange,
  what,
  permission,
  saved,
}: {
  save: SaveState<T>;
  canChange: boolean;
  /** What the role cannot do, for its note: "change settings". */
  what: string;
  permission: Permission;
  saved: (data: T) => ReactNode;
}) {
  return (
    <>
      <div className="flex flex-wrap items-center gap-3 pt-1">
        <Button type="submit" loading={save.isPending} disabled={!canChange}>
          Save
        </Button>
        {canChange ? null : <RoleNote what={what} permission={permission} />}
        {save.isSuccess && save.data !== undefined ? <Alert tone="success">{saved(save.data)}</Alert> : null}
      </div>
      {save.isError ? (
        <Alert tone="danger">
          {save.error instanceof Error ? save.error.message : 'Could not save.'}
          <RequestLink error={save.error} />
        </Alert>
      ) : null}
    </>
  );
}
