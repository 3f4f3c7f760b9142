import { expect, navLink, portalApi, portalUrl, screenshots, test } from '../fixtures';
import { linkFromOutbox } from '../outbox';
import { axeFindings } from '../axe';
import { addMember } from './fixtures/members';

// Members and roles in the portal (docs/decisions/teams.md): a viewer is offered only what it can use and
// told plainly what it cannot; an owner changes roles and removes members on the Members page, with the permission
// table shown as the server applies it. The member is written to the database as an accepted invitation would make
// it (invitations have tests of their own), on the database the server under test uses.

/** axe at 1440 and 390 (as e2e/browser/accessibility.spec.ts): no moderate, serious or critical violation. */
test('a viewer is offered what it can use; an owner changes roles and removes members', async ({
  freshPage: owner,
  browser,
}, testInfo) => {
  // Two sign-ins (argon2), axe at two widths on three pages, and screenshots, on a shared loaded machine.
  test.setTimeout(300_000);
  const session = (await (await portalApi(owner, 'GET', '/portal-api/session', undefined, 'test')).json()) as {
    account: { id: string };
    role: string;
  };
  expect(session.role).toBe('owner');
  const viewerUser = await addMember(session.account.id, 'viewer');

  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, viewport: { width: 1440, height: 900 } });
  const viewer = await context.newPage();
  await viewer.goto('/sign-in');
  await viewer.getByLabel('E-mail').fill(viewerUser.email);
  await viewer.getByLabel('Password').fill(viewerUser.password);
  await viewer.getByRole('button', { name: 'Sign in' }).click();
  await expect(viewer).toHaveURL(/\/test\/dashboard$/, { timeout: 30_000 });

  // The navigation: only what a viewer can use.
  for (const [label, group] of [
    ['Dashboard', undefined],
    ['Rates', 'Shipping'],
    ['Manifests', 'Shipping'],
    ['Packages', 'Shipping'],
    ['Members', 'Team'],
    ['Settings', 'Team'],
  ] as const) {
    await expect(await navLink(viewer, label, group)).toBeVisible();
  }
  for (const [label, group] of [
    ['New manifest', 'Shipping'],
    ['Webhooks', 'Developers'],
    ['Logs', 'Developers'],
    ['API tokens', 'Developers'],
  ] as const) {
    await expect(await navLink(viewer, label, group)).toHaveCount(0);
  }
  // A page it cannot use, visited directly: said plainly, not a page of refused requests.
  for (const [path, what] of [
    ['/webhooks', 'manage webhook endpoints'],
    ['/tokens', 'manage API tokens'],
    ['/logs', 'read the request log'],
    ['/manifests/new', 'create manifests'],
  ] as const) {
    await viewer.goto(portalUrl('test', path));
    await expect(viewer.getByTestId('role-cannot')).toContainText(`Your role (viewer) cannot ${what}`);
  }
  await screenshots(viewer, testInfo, 'viewer-webhooks-refused', async () => {
    await viewer.goto(portalUrl('test', '/webhooks'));
    await expect(viewer.getByTestId('role-cannot')).toBeVisible();
  });
  // Write controls it cannot use: no "New container manifest"; the settings form disabled, with the reason.
  await viewer.goto(portalUrl('test', '/manifests'));
  await expect(viewer.getByRole('heading', { name: 'Manifests' })).toBeVisible();
  await expect(viewer.getByRole('link', { name: 'New container manifest' })).toHaveCount(0);
  await viewer.goto(portalUrl('test', '/settings'));
  await expect(viewer.getByRole('form', { name: 'Automatic close-out' }).getByRole('button', { name: 'Save' })).toBeDisabled();
  await expect(viewer.getByRole('form', { name: 'Automatic close-out' }).getByTestId('role-note')).toContainText(
    'Your role (viewer) cannot change settings',
  );
  // The Members page: the list, no role selects, the permission table with the viewer's column.
  await viewer.goto(portalUrl('test', '/members'));
  await expect(viewer.getByTestId('member-row')).toHaveCount(2);
  await expect(viewer.getByRole('combobox', { name: /^Role of/ })).toHaveCount(0);
  await expect(viewer.getByTestId('permission-matrix')).toContainText('owners:manage');
  await screenshots(viewer, testInfo, 'members-viewer', async () => {
    await expect(viewer.getByTestId('member-row')).toHaveCount(2);
  });
  expect(await axeFindings(viewer, 'members (viewer)')).toEqual([]);
  await viewer.goto(portalUrl('test', '/webhooks'));
  await expect(viewer.getByTestId('role-cannot')).toBeVisible();
  expect(await axeFindings(viewer, 'webhooks refused (viewer)')).toEqual([]);

  // The owner: a role select for the viewer, the permission table, and the page at both widths.
  await owner.goto(portalUrl('test', '/members'));
  const select = owner.getByRole('combobox', { name: `Role of ${viewerUser.email}` });
  await expect(select).toHaveValue('viewer');
  await screenshots(owner, testInfo, 'members-owner', async () => {
    await expect(owner.getByTestId('member-row')).toHaveCount(2);
  });
  expect(await axeFindings(owner, 'members (owner)')).toEqual([]);
  await select.selectOption('operator');
  await owner.getByRole('button', { name: `Change role of ${viewerUser.email}` }).click();
  await owner.getByRole('dialog').getByRole('button', { name: 'Yes, make operator' }).click();
  await expect(owner.getByRole('status').filter({ hasText: `${viewerUser.email} is now operator` })).toBeVisible();
  await expect(owner.getByRole('combobox', { name: `Role of ${viewerUser.email}` })).toHaveValue('operator');
  // Takes effect for the member at once: New manifest is offered now.
  await viewer.goto(portalUrl('test', '/manifests'));
  await expect(viewer.getByRole('link', { name: 'New container manifest' })).toBeVisible();
  // The owner cannot demote itself, the last owner: the refusal is shown where it was asked.
  const ownRow = owner.getByTestId('member-row').filter({ hasText: 'you' });
  await ownRow.getByRole('combobox').selectOption('admin');
  await ownRow.getByRole('button', { name: /^Change role of/ }).click();
  const demote = owner.getByRole('dialog');
  await demote.getByRole('checkbox', { name: /I understand/ }).check();
  await demote.getByRole('button', { name: 'Yes, make admin' }).click();
  await expect(demote.getByRole('alert')).toContainText('last owner');
  await demote.getByRole('button', { name: 'Close' }).click();
  // The select shows the role the member still has.
  await expect(ownRow.getByRole('combobox')).toHaveValue('owner');

  // Remove, with the confirmation dialog; the removed member's session is over at once.
  await owner.getByRole('button', { name: `Remove ${viewerUser.email}` }).click();
  const dialog = owner.getByRole('dialog');
  await expect(dialog).toContainText(`Remove ${viewerUser.email}?`);
  await screenshots(owner, testInfo, 'members-remove-dialog');
  await dialog.getByRole('button', { name: 'Yes, remove' }).click();
  await expect(owner.getByTestId('member-row')).toHaveCount(1);
  await viewer.goto(portalUrl('test', '/dashboard'));
  await expect(viewer).toHaveURL(/\/sign-in/);
  await context.close();
});

test('a stale tab that revokes an invitation accepted meanwhile is told why, beside the button, with its request', async ({
  freshPage: owner,
  browser,
}, testInfo) => {
  // Two sign-ups' worth of argon2 (the owner's, the invitee's) on a shared loaded machine.
  test.setTimeout(180_000);
  const session = (await (await portalApi(owner, 'GET', '/portal-api/session', undefined, 'test')).json()) as {
    account: { name: string };
  };
  const email = `stale-${Date.now().toString(36)}@e2e.example`;

  // The owner invites, and starts to revoke: the confirmation is up in this tab, which is not reloaded from here on.
  await owner.goto(portalUrl('test', '/members'));
  await owner.getByLabel('E-mail').fill(email);
  await owner.getByRole('button', { name: 'Send invitation' }).click();
  const row = owner.getByRole('region', { name: 'Open invitations' }).getByRole('row').filter({ hasText: email });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Revoke the invitation to ${email}` }).click();
  await expect(row.getByRole('button', { name: 'Confirm revoke' })).toBeFocused();

  // Meanwhile the invitee accepts, in a browser of their own.
  const origin = new URL(owner.url()).origin;
  const link = new URL(
    await linkFromOutbox(origin, email, {
      subject: `You are invited to join ${session.account.name} on Carrier`,
      path: '/invitations/accept',
    }),
  );
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 1440, height: 900 } });
  const invitee = await context.newPage();
  await invitee.goto(link.pathname + link.search);
  await invitee.getByLabel('Password').fill('an invitee password 1');
  await invitee.getByRole('button', { name: 'Create user and join' }).click();
  await expect(invitee.getByText(`You joined ${session.account.name} as operator.`)).toBeVisible({ timeout: 30_000 });
  await context.close();

  // The stale tab confirms: refused (409). The lists catch up (the row goes, the new member is listed), and the answer
  // is said above the invitations, with the link to its request in the log.
  await row.getByRole('button', { name: 'Confirm revoke' }).click();
  const refusal = owner.getByTestId('invitations-panel').getByRole('alert');
  await expect(refusal).toContainText(
    'Not revoked: This invitation was already accepted: remove the member on the Members page instead.',
  );
  await expect(owner.locator(':focus')).toContainText('Not revoked');
  await expect(row).toHaveCount(0);
  await expect(owner.getByRole('region', { name: 'Member list' })).toContainText(email);
  const requestLink = refusal.getByRole('link');
  await expect(requestLink).toHaveAttribute('href', /^\/test\/logs\/[^/]+$/);
  await screenshots(owner, testInfo, 'members-revoke-refused', () => expect(refusal).toBeVisible());

  // The link opens the refused request's line.
  await requestLink.click();
  await expect(owner.getByRole('heading', { level: 1 })).toHaveText(/^DELETE \/invitations\/[0-9a-f-]{36}$/);
  await expect(owner.getByRole('main')).toContainText(/409\s*conflict/);
  await expect(owner.getByRole('region', { name: 'Response' })).toContainText('This invitation was already accepted');
});

test('a role changes only by "Change role" and its confirmation: an arrow key on the select saves nothing', async ({
  freshPage: owner,
}, testInfo) => {
  test.setTimeout(180_000);
  const session = (await (await portalApi(owner, 'GET', '/portal-api/session', undefined, 'test')).json()) as {
    account: { id: string };
  };
  const member = await addMember(session.account.id, 'viewer');
  const serverRole = async () => {
    const list = (await (await portalApi(owner, 'GET', '/portal-api/members', undefined, 'test')).json()) as {
      members: { email: string; role: string }[];
    };
    return list.members.find((m) => m.email === member.email)?.role;
  };

  await owner.goto(portalUrl('test', '/members'));
  const select = owner.getByRole('combobox', { name: `Role of ${member.email}` });
  await expect(select).toHaveValue('viewer');
  await select.focus();
  await owner.keyboard.press('ArrowUp');
  await expect(select).toHaveValue('operator');
  // Nothing is sent: the server still has the old role a moment later, and the page offers the explicit action.
  await owner.waitForTimeout(1_500);
  expect(await serverRole()).toBe('viewer');
  const change = owner.getByRole('button', { name: `Change role of ${member.email}` });
  await expect(change).toBeVisible();

  // Owner: the stronger confirmation, in a dialog centred in the viewport, refused until "I understand" is ticked.
  await select.selectOption('owner');
  await change.click();
  const dialog = owner.getByRole('dialog');
  await expect(dialog).toContainText(`Make ${member.email} owner?`);
  await expect(dialog).toContainText('An owner has every permission');
  const confirm = dialog.getByRole('button', { name: 'Yes, make owner' });
  await expect(confirm).toBeDisabled();
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await owner.setViewportSize({ width, height });
    const box = (await dialog.boundingBox())!;
    expect(Math.abs(box.x + box.width / 2 - width / 2)).toBeLessThan(4);
    expect(Math.abs(box.y + box.height / 2 - height / 2)).toBeLessThan(4);
  }
  await owner.setViewportSize({ width: 1440, height: 900 });
  await screenshots(owner, testInfo, 'members-role-confirm-owner', () => expect(dialog).toBeVisible());
  // Cancel: nothing changes, focus is back on the row's select.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await serverRole()).toBe('viewer');

  await change.click();
  await dialog.getByRole('checkbox', { name: `I understand that ${member.email} gets these permissions.` }).check();
  await expect(confirm).toBeEnabled();
  await confirm.click();
  const status = owner.getByRole('status').filter({ hasText: `${member.email} is now owner (was viewer).` });
  await expect(status).toBeVisible();
  await expect(select).toBeFocused();
  await expect(change).toHaveCount(0);
  expect(await serverRole()).toBe('owner');
  await screenshots(owner, testInfo, 'members-role-changed', () => expect(status).toBeVisible());
});
