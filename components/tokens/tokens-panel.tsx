'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { usePortalEnvironment } from '@/components/layout/portal-context';
import {
  Alert,
  Badge,
  Button,
  Card,
  CardTitle,
  ConfirmInline,
  CopyButton,
  EmptyState,
  ErrorState,
  Field,
  FocusOnMount,
  Input,
  LoadingBlock,
  RequestLink,
  Table,
  Td,
  Th,
  Tr,
  DateTime,
} from '@/components/ui';
import { API_SCOPES, SCOPE_DESCRIPTIONS } from '@/lib/auth/scopes';
import { applyFieldErrors } from '@/lib/portal/fetcher';
import { ZCreateTokenRequest, type TCreateTokenRequest } from '@/lib/schemas/portal';
import type {
  TApiTokenListResponse,
  TApiTokenRow,
  TCreatedApiTokenResponse,
  TRevokedApiTokenResponse,
} from '@/lib/schemas/portal-responses';

function CreateTokenForm({ onCreated }: { onCreated: (token: TCreatedApiTokenResponse) => void }) {
  const portal = usePortalEnvironment();
  const { environment } = portal;
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  // scopes null: full access; an array: exactly the boxes ticked (at least one, as the shared schema says).
  const form = useForm<TCreateTokenRequest>({
    resolver: zodResolver(ZCreateTokenRequest),
    defaultValues: { name: '', scopes: null },
  });
  const scopes = useWatch({ control: form.control, name: 'scopes' });
  const restricted = Array.isArray(scopes);
  const scopesError = form.formState.errors.scopes;
  const create = useMutation({
    mutationFn: (values: TCreateTokenRequest) => portal.fetch<TCreatedApiTokenResponse>('/portal-api/tokens', { body: values }),
    onSuccess: (token) => {
      form.reset();
      onCreated(token);
      void queryClient.invalidateQueries({ queryKey: portal.key('tokens') });
    },
    onError: (error) => setFormError(applyFieldErrors(error, form.setError, ['name', 'scopes']).join(' ') || null),
  });
  return (
    <form
      noValidate
      onSubmit={(event) =>
        void form.handleSubmit((values) => {
          setFormError(null);
          create.mutate(values);
        })(event)
      }
      className="space-y-4"
    >
      <Field
        label="Token name"
        error={form.formState.errors.name?.message}
        hint="Where it will be used, e.g. “Warehouse WMS”."
        className="max-w-xl"
        required
      >
        <Input autoComplete="off" {...form.register('name')} />
      </Field>
      <fieldset aria-describedby={scopesError ? 'token-scopes-error' : undefined}>
        <legend className="text-sm font-medium text-slate-800">Access</legend>
        <div className="mt-1 space-y-1">
          <label className="flex items-start gap-2 text-sm text-slate-800">
            <input
              type="radio"
              name="token-access"
              checked={!restricted}
              onChange={() => form.setValue('scopes', null, { shouldValidate: form.formState.isSubmitted })}
              className="mt-0.5 h-4 w-4 shrink-0"
            />
            <span>
              Full access <span className="text-slate-600">— every operation, including ones added later.</span>
            </span>
          </label>
          <label className="flex items-start gap-2 text-sm text-slate-800">
            <input
              type="radio"
              name="token-access"
              checked={restricted}
              onChange={() => form.setValue('scopes', [], { shouldValidate: form.formState.isSubmitted })}
              className="mt-0.5 h-4 w-4 shrink-0"
            />
            <span>
              Only the scopes I choose{' '}
              <span className="text-slate-600">— anything else is refused with 403 insufficient_scope.</span>
            </span>
          </label>
        </div>
        {restricted ? (
          <div className="ml-6 mt-2 grid gap-1 lg:grid-cols-2" role="group" aria-label="Scopes">
            {API_SCOPES.map((scope) => (
              <label key={scope} className="flex items-start gap-2 text-sm text-slate-800">
                <input type="checkbox" value={scope} {...form.register('scopes')} className="mt-0.5 h-4 w-4 shrink-0" />
                <span>
                  <code>{scope}</code> <span className="text-slate-600">— {SCOPE_DESCRIPTIONS[scope]}</span>
                </span>
              </label>
            ))}
          </div>
        ) : null}
        {scopesError ? (
          <p id="token-scopes-error" className="mt-1 text-sm text-red-700">
            {scopesError.message ?? 'Choose at least one scope, or full access.'}
          </p>
        ) : null}
      </fieldset>
      <Button type="submit" loading={create.isPending}>
        Create {environment} token
      </Button>
      {formError ? (
        <Alert tone="danger">
          {formError}
          <RequestLink error={create.error} />
        </Alert>
      ) : create.isError ? (
        <RequestLink error={create.error} className="block text-xs text-slate-700" />
      ) : null}
    </form>
  );
}

/** A token's access: full, or its scopes. */
function TokenScopes({ scopes }: { scopes: TApiTokenRow['scopes'] }) {
  if (scopes === null) return <Badge tone="neutral">Full access</Badge>;
  return (
    <span className="inline-flex flex-wrap gap-1" data-testid="token-scopes">
      {scopes.map((scope) => (
        <code key={scope} className="rounded bg-slate-100 px-1 text-xs text-slate-800">
          {scope}
        </code>
      ))}
    </span>
  );
}

function RevokeButton({ token }: { token: TApiTokenRow }) {
  const portal = usePortalEnvironment();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () =>
      portal.fetch<TRevokedApiTokenResponse>(`/portal-api/tokens/${encodeURIComponent(token.id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: portal.key('tokens') }),
  });
  if (token.revokedAt)
    return (
      <span className="text-sm text-slate-600">
        Revoked <DateTime value={token.revokedAt} />
      </span>
    );
  return (
    <ConfirmInline
      label="Revoke"
      ariaLabel={`Revoke token ${token.name}`}
      confirmLabel="Confirm revoke"
      busy={revoke.isPending}
      onConfirm={() => revoke.mutate()}
      error={revoke.error}
    />
  );
}

export function TokensPanel() {
  const portal = usePortalEnvironment();
  const { environment } = portal;
  const [created, setCreated] = useState<TCreatedApiTokenResponse | null>(null);
  const tokens = useQuery({
    queryKey: portal.key('tokens'),
    queryFn: ({ signal }) => portal.fetch<TApiTokenListResponse>('/portal-api/tokens', { signal }),
  });
  const base = environment === 'live' ? '/api/1.1' : '/version-test/api/1.1';

  return (
    <div className="space-y-6">
      <Card>
        <CardTitle>Create a token</CardTitle>
        <p className="mb-4 mt-1 text-sm text-slate-600">
          Tokens created here work only in the <strong>{environment}</strong> environment (<code>{base}</code>). Switch
          environment in the header for the other.
        </p>
        <CreateTokenForm onCreated={setCreated} />
        {created ? (
          <div className="mt-4 space-y-2 rounded-md border border-green-300 bg-green-50 p-4" data-testid="new-token">
            <p className="text-sm font-medium text-green-900">
              Copy “{created.name}” now. It is shown only once; we store just a hash of it.
            </p>
            <div className="text-sm text-green-900">
              Access: <TokenScopes scopes={created.scopes} />
            </div>
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
              {/* Focus goes to the token itself: what the submit produced, ready to be read or copied. */}
              <FocusOnMount focusKey={created.id} className="min-w-0 rounded">
                <code
                  className="block break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900 ring-1 ring-slate-300"
                  data-testid="new-token-value"
                >
                  {created.token}
                </code>
              </FocusOnMount>
              <CopyButton value={created.token} label="Copy token" />
              <Button variant="ghost" size="sm" onClick={() => setCreated(null)}>
                Done
              </Button>
            </div>
          </div>
        ) : null}
      </Card>

      <Card>
        <CardTitle>Tokens</CardTitle>
        <div className="mt-3">
          {tokens.isPending ? (
            <LoadingBlock label="Loading tokens…" />
          ) : tokens.isError ? (
            <ErrorState title="Could not load tokens" error={tokens.error} onRetry={() => void tokens.refetch()} />
          ) : tokens.data.tokens.length === 0 ? (
            <EmptyState title={`No ${environment} tokens yet`}>Create one above to call the API.</EmptyState>
          ) : (
            <Table label="API tokens">
              <thead>
                <tr>
                  <Th>Name</Th>
                  <Th className="hidden sm:table-cell">Prefix</Th>
                  <Th className="hidden md:table-cell">Environment</Th>
                  <Th className="hidden sm:table-cell">Scopes</Th>
                  <Th className="hidden md:table-cell">Created</Th>
                  <Th className="hidden sm:table-cell">Last used</Th>
                  <Th>
                    <span className="sr-only">Actions</span>
                  </Th>
                </tr>
              </thead>
              <tbody>
                {tokens.data.tokens.map((token) => (
                  <Tr key={token.id} data-testid="token-row">
                    <Td className="font-medium">
                      {token.name || '—'}
                      {/* On a phone the prefix, scopes and last use go under the name, so that the row (and its Revoke, asked twice) fits. */}
                      <span className="mt-1 block whitespace-normal text-xs font-normal text-slate-600 sm:hidden">
                        <code className="block">{token.displayPrefix}…</code>
                        <span className="block">{token.scopes === null ? 'Full access' : token.scopes.join(' · ')}</span>
                        <span className="mt-1 block">
                          Last used {token.lastUsedAt ? <DateTime value={token.lastUsedAt} /> : 'never'}
                        </span>
                      </span>
                    </Td>
                    <Td className="hidden sm:table-cell">
                      <code>{token.displayPrefix}…</code>
                    </Td>
                    <Td className="hidden md:table-cell">
                      <Badge tone={token.environment === 'live' ? 'success' : 'warning'}>{token.environment}</Badge>
                    </Td>
                    <Td className="hidden sm:table-cell">
                      <TokenScopes scopes={token.scopes} />
                    </Td>
                    <Td className="hidden md:table-cell">
                      <DateTime value={token.createdAt} />
                      <span className="block text-xs text-slate-600">
                        {token.createdBy ? `by ${token.createdBy.email}` : 'creator not recorded'}
                      </span>
                    </Td>
                    <Td className="hidden sm:table-cell">{token.lastUsedAt ? <DateTime value={token.lastUsedAt} /> : 'Never'}</Td>
                    <Td>
                      <RevokeButton token={token} />
                    </Td>
                  </Tr>
                ))}
              </tbody>
            </Table>
          )}
        </div>
      </Card>
    </div>
  );
}
