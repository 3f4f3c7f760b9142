'use client';
import { useState, type FormEvent } from 'react';
import { useCan } from '@/components/layout/portal-context';
import { Alert, Card, CardTitle, Field, Input } from '@/components/ui';
import { PortalError } from '@/lib/portal/fetcher';
import type { TBranding, TBrandingRequest } from '@/lib/schemas/branding';
import { SaveRow } from './save-row';
import { SettingLoader, useSaveSetting, type SettingSource } from './setting-loader';

/** The size the server takes (lib/branding/logo.ts): checked here first only to say so before uploading. */
const LOGO_MAX_BYTES = 256 * 1024;

/** The account's branding of its packages' public tracking page: an accent colour and a logo. */
export function BrandingSettingsForm() {
  return (
    <SettingLoader<TBranding> name="branding" what="the branding">
      {(shown, source) => <Form shown={shown} source={source} />}
    </SettingLoader>
  );
}

function base64Of(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** `shown` is the stored branding: the loader passes the server's answer again after each save. */
function Form({ shown, source }: { shown: TBranding; source: SettingSource }) {
  const canChange = useCan('settings:manage');
  const [useAccent, setUseAccent] = useState(shown.accent_color !== null);
  const [accent, setAccent] = useState(shown.accent_color ?? '#1d4ed8');
  const [logo, setLogo] = useState<{ name: string; content_base64: string } | null | undefined>(undefined);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const save = useSaveSetting<TBrandingRequest, TBranding>(source, () => setLogo(undefined));
  const details = save.error instanceof PortalError ? save.error.details : [];

  async function choose(file: File | undefined) {
    setFileProblem(null);
    if (!file) return setLogo(undefined);
    if (file.size > LOGO_MAX_BYTES)
      return setFileProblem(`${file.name} is ${Math.ceil(file.size / 1024)} KB; the logo may be at most 256 KB.`);
    setLogo({ name: file.name, content_base64: base64Of(await file.arrayBuffer()) });
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ accent_color: useAccent ? accent : null, ...(logo !== undefined ? { logo } : {}) });
  }
  return (
    <Card>
      <CardTitle>Tracking page branding</CardTitle>
      <p className="mt-1 text-sm text-slate-600">
        Your logo and accent colour on the public tracking page of your live packages (the <code>tracking_url</code> of each). PNG
        or JPEG, at most 256 KB and 2,048 pixels a side; its content is checked, not its name. For the whole account.
      </p>
      <form onSubmit={submit} aria-label="Tracking page branding" className="mt-4">
        <fieldset disabled={!canChange} className="space-y-4">
          <div className="flex flex-wrap items-center gap-4">
            {shown.logo ? (
              // The stored logo as the tracking page shows it (a data: URL of checked bytes).
              // eslint-disable-next-line @next/next/no-img-element
              <img
                src={shown.logo.data_url}
                alt="Current logo"
                data-testid="branding-logo"
                className="h-12 w-auto max-w-[12rem] rounded border border-slate-200 object-contain p-1"
              />
            ) : (
              <span className="text-sm text-slate-600">No logo.</span>
            )}
            {shown.logo ? (
              <span className="min-w-0 break-all text-sm text-slate-700">
                {shown.logo.name} ({Math.ceil(shown.logo.bytes / 1024)} KB)
              </span>
            ) : null}
          </div>
          <Field label="Logo file" hint="PNG or JPEG, at most 256 KB." error={fileProblem ?? undefined}>
            <Input
              id="branding-logo-file"
              type="file"
              accept="image/png,image/jpeg"
              onChange={(e) => void choose(e.target.files?.[0])}
            />
          </Field>
          {shown.logo ? (
            <label className="flex items-center gap-3 text-sm">
              <input
                type="checkbox"
                checked={logo === null}
                onChange={(e) => setLogo(e.target.checked ? null : undefined)}
                className="h-4 w-4 rounded border-slate-400"
              />
              Remove the logo
            </label>
          ) : null}
          <div className="flex flex-wrap items-end gap-4">
            <label className="flex items-center gap-3 text-sm">
              <input
                type="checkbox"
                checked={useAccent}
                onChange={(e) => setUseAccent(e.target.checked)}
                className="h-4 w-4 rounded border-slate-400"
              />
              Use an accent colour
            </label>
            <Field label="Accent colour" hint="#rrggbb, such as #1d4ed8">
              <Input
                id="branding-accent"
                value={accent}
                onChange={(e) => setAccent(e.target.value)}
                disabled={!useAccent}
                className="w-32 font-mono"
              />
            </Field>
            <input
              type="color"
              aria-label="Accent colour picker"
              value={/^#[0-9a-fA-F]{6}$/.test(accent) ? accent.toLowerCase() : '#000000'}
              onChange={(e) => setAccent(e.target.value)}
              disabled={!useAccent}
              className="mb-6 h-9 w-12 rounded border border-slate-300"
            />
          </div>
          {details.length > 0 ? (
            <Alert tone="danger">
              <ul className="list-disc pl-5">
                {details.map((d) => (
                  <li key={d.path} className="break-words">
                    {d.path === 'logo.content_base64' ? 'The logo' : d.path === 'logo.name' ? 'The file name' : d.path}{' '}
                    {d.message}
                  </li>
                ))}
              </ul>
            </Alert>
          ) : null}
          <SaveRow
            save={save}
            canChange={canChange}
            what="change settings"
            permission="settings:manage"
            saved={(data) =>
              `Saved: ${data.logo ? `logo ${data.logo.name}` : 'no logo'}, ${data.accent_color ? `accent ${data.accent_color}` : 'no accent colour'}.`
            }
          />
        </fieldset>
      </form>
    </Card>
  );
}
