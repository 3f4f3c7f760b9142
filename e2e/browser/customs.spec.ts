import { containerSample } from '../api/support/samples';
import { apiBase, authed, createToken, expect, test } from '../fixtures';
import { cell, uid } from './fixtures/manifests';
import { lookAt } from '../axe';

// Customs in the portal: readiness per regime on the manifest page (each problem linked to its package), the
// package's declaration and customs events, the builder's customs columns and a German spreadsheet's headers.
// Each page is scanned by axe and photographed at 1280 and 390 px wide.

const DECLARED = {
  ContentsType: 'merchandise',
  Incoterm: 'DAP',
  Currency: 'EUR',
  Items: [
    {
      Description: 'Cotton T-shirt',
      Quantity: 2,
      Value: '25.00',
      Weight: '0.4',
      WeightUnit: 'kg',
      HSCode: '6109100010',
      OriginCountry: 'PT',
    },
  ],
};

test.describe('customs in the portal', () => {
  test('readiness on the manifest page, linked to packages; declaration and customs events on the package page', async ({
    freshPage: page,
    request,
  }, testInfo) => {
    test.setTimeout(180_000);
    const api = authed(request, await createToken(page, 'customs'));
    const id = uid('CUS');
    const [full, bare] = [`${id}-1`, `${id}-2`];
    const body = {
      ...containerSample(id, []),
      ULD: 'AKE12345XH',
      FlightNumber: 'AC876',
      FlightDate: '2026-12-01',
      OriginAirport: 'YYZ',
      DestinationAirport: 'FRA',
      Security: { Status: 'SPX', ScreeningMethod: 'XRY' },
      ContainerDetails: [
        {
          TrackingNumber: full,
          PackageWeight: 1.2,
          PackageWeightUnit: 'kg',
          ToName: 'Lena Weber',
          ToPhone: '+49 69 1234567',
          ToEmail: 'lena@example.de',
          ToAddress1: 'Zeil 1',
          ToCity: 'Frankfurt',
          ToPostalCode: '60313',
          ToCountry: 'DE',
          Customs: DECLARED,
        },
        { TrackingNumber: bare, PackageWeight: 2, PackageWeightUnit: 'kg', ToCountry: 'DE' },
      ],
    };
    const created = await api.post(`${apiBase.test}/wf/manifest`, body);
    expect(created.status(), await created.text()).toBe(200);
    const manifestId = ((await created.json()) as { ManifestID: string }).ManifestID;
    const outcome = await api.post(`${apiBase.test}/packages/${full}/simulate`, {
      customs: 'information_requested',
      text: 'Please send the invoice',
    });
    expect(outcome.status(), await outcome.text()).toBe(200);

    await page.goto(`/test/manifests/${manifestId}`);
    const customs = page.getByRole('region', { name: 'Customs' });
    await expect(customs.getByText(/^Not ready: /)).toBeVisible();
    await expect(customs.getByRole('heading', { name: /ENS/ })).toBeVisible();
    await expect(customs.getByRole('link', { name: 'CN 23 declarations (PDF, opens in a new tab)' })).toHaveAttribute(
      'href',
      new RegExp(`/portal-api/manifests/${manifestId}/customs-declarations\\?`),
    );
    await expect(customs.getByRole('link', { name: 'ONE Record export' })).toHaveAttribute('download');
    // The bare house (row 2) lacks its consignee's name and address: each problem links to its page.
    await expect(customs.getByRole('link', { name: `Row 2 · ${bare}` }).first()).toBeVisible();
    await expect(page.getByText('AKE12345XH').first()).toBeVisible();
    await lookAt(page, testInfo, 'manifest-customs');

    // The ONE Record export downloads through the portal's mount.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      customs.getByRole('link', { name: 'ONE Record export' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`one-record-${manifestId}.jsonld`);

    await customs
      .getByRole('link', { name: `Row 2 · ${bare}` })
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`/test/packages/${bare}$`));
    await expect(page.getByText('No customs declaration was sent with this package.')).toBeVisible();

    await page.goto(`/test/packages/${full}`);
    const declaration = page.getByRole('heading', { name: 'Customs declaration' });
    await expect(declaration).toBeVisible();
    const items = page.getByRole('table', { name: 'Declared items' });
    await expect(items.getByRole('cell', { name: 'Cotton T-shirt' })).toBeVisible();
    await expect(items.getByRole('cell', { name: '6109100010' })).toBeVisible();
    await expect(page.getByText('Customs: Information requested').first()).toBeVisible();
    await expect(page.getByText('Please send the invoice').first()).toBeVisible();
    await expect(page.getByText(/^H\d{11}$/).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'CN 23 declaration (PDF, opens in a new tab)' })).toBeVisible();
    await lookAt(page, testInfo, 'package-customs');
  });

  test('the builder takes customs columns and the air cargo header; a German spreadsheet maps itself', async ({
    freshPage: page,
  }, testInfo) => {
    test.setTimeout(120_000);
    await page.goto('/test/manifests/new');
    await expect(page.getByRole('group', { name: 'Air cargo' })).toBeVisible();
    await expect(page.getByLabel('ULD', { exact: true })).toBeVisible();
    await page.getByLabel('Security status').fill('XXX');
    await page.getByLabel('Security status').blur();
    await expect(page.getByRole('group', { name: 'Air cargo' }).getByText(/SPX/).first()).toBeVisible();

    const tn = uid('DE');
    const csv = [
      'Sendungsnummer;Gewicht (kg);Empfänger;PLZ;Land;Zolltarifnummer;Warenbeschreibung;Warenwert;Währung;Ursprungsland;Anzahl',
      `${tn}-1;1,5;Lena Weber;60313;DE;6109.10.00;Baumwoll T-Shirt;12,50;EUR;PT;2`,
      `${tn}-2;0,5;Jan Roth;60313;DE;61AB;Geschenk;1,234;EUR;QQ;1`,
    ].join('\r\n');
    await page
      .getByLabel('CSV or Excel file')
      .setInputFiles({ name: 'versand.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByLabel('Field for column Zolltarifnummer')).toHaveValue('CustomsHSCode');
    await expect(page.getByLabel('Field for column Warenbeschreibung')).toHaveValue('CustomsDescription');
    await expect(page.getByLabel('Field for column Warenwert')).toHaveValue('CustomsValue');
    await expect(page.getByLabel('Field for column Währung')).toHaveValue('CustomsCurrency');
    await expect(page.getByLabel('Field for column Ursprungsland')).toHaveValue('CustomsOriginCountry');
    await expect(page.getByLabel('Field for column Anzahl')).toHaveValue('CustomsQuantity');
    await expect(page.getByLabel('Field for column Sendungsnummer')).toHaveValue('TrackingNumber');
    await lookAt(page, testInfo, 'builder-import-mapping');
    await page.getByRole('button', { name: 'Import rows' }).click();
    await expect(page.getByText('Imported 2 rows.')).toBeVisible();
    await expect(cell(page, 0, 'CustomsHSCode')).toHaveText('6109.10.00');
    await expect(cell(page, 0, 'CustomsValue')).toHaveText('12.50');
    // The second row's declaration is wrong in four cells, each marked.
    for (const field of ['CustomsHSCode', 'CustomsDescription', 'CustomsValue', 'CustomsOriginCountry'])
      await expect(cell(page, 1, field)).toHaveAttribute('aria-invalid', 'true');
    await expect(cell(page, 0, 'CustomsHSCode')).not.toHaveAttribute('aria-invalid', 'true');
    await lookAt(page, testInfo, 'builder-customs');
  });

  test('an owner holds live departures until customs data is ready, on the Settings page; it stays after a reload', async ({
    freshPage: page,
  }, testInfo) => {
    await page.goto('/live/settings');
    const form = page.getByRole('form', { name: 'Customs before departure' });
    const box = form.getByRole('checkbox', { name: /Hold a live container until its customs data is ready/ });
    await expect(box).not.toBeChecked();
    await box.check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Saved: live containers depart only when ready.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('form', { name: 'Customs before departure' }).getByRole('checkbox')).toBeChecked();
    await lookAt(page, testInfo, 'settings-customs');
  });
});
