// Headers as people write them ("Tracking #", "Weight (kg)", "Zolltarifnummer", "País de origen") matched to package
// fields, ignoring case, accents, spaces and punctuation; a bracketed weight unit is the unit of that column's values.
// English, German, French and Spanish names are known. Client-safe.

export function normaliseHeader(name: string): string {
  return name
    .toLowerCase()
    .replaceAll('ß', 'ss')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replaceAll('#', 'number')
    .replace(/[^a-z0-9]+/g, '');
}

// Written as normaliseHeader leaves them: "Warenbeschreibung" is warenbeschreibung, "Valeur déclarée" valeurdeclaree.
const SYNONYMS: Record<string, readonly string[]> = {
  TrackingNumber: [
    'tracking',
    'trackingno',
    'trackingid',
    'trackingcode',
    'trackno',
    'tn',
    'parcelnumber',
    'packagenumber',
    'sendungsnummer',
    'paketnummer',
    'numerodesuivi',
    'numerodecolis',
    'numerodeseguimiento',
    'numerodeguia',
  ],
  PackageWeight: [
    'weight',
    'wt',
    'grossweight',
    'pkgweight',
    'parcelweight',
    'gewicht',
    'bruttogewicht',
    'poids',
    'poidsbrut',
    'peso',
    'pesobruto',
  ],
  PackageWeightUnit: [
    'weightunit',
    'unit',
    'units',
    'uom',
    'wtunit',
    'unitofmeasure',
    'gewichtseinheit',
    'einheit',
    'unitedepoids',
    'unidaddepeso',
    'unidad',
  ],
  PackageSizeLength: ['length', 'len', 'packagelength', 'lange', 'longueur', 'largo', 'longitud'],
  PackageSizeWidth: ['width', 'packagewidth', 'breite', 'largeur', 'ancho'],
  PackageSizeHeight: ['height', 'packageheight', 'hohe', 'hauteur', 'alto', 'altura'],
  ToName: [
    'recipientname',
    'recipient',
    'name',
    'shiptoname',
    'consignee',
    'consigneename',
    'customername',
    'fullname',
    'receiver',
    'empfanger',
    'empfangername',
    'destinataire',
    'nomdudestinataire',
    'nom',
    'destinatario',
    'nombre',
    'nombredeldestinatario',
  ],
  ToPhone: [
    'phone',
    'phonenumber',
    'telephone',
    'tel',
    'mobile',
    'recipientphone',
    'shiptophone',
    'telefon',
    'telefonnummer',
    'telefono',
  ],
  ToEmail: [
    'email',
    'emailaddress',
    'mail',
    'recipientemail',
    'shiptoemail',
    'courriel',
    'adresseemail',
    'correo',
    'correoelectronico',
  ],
  ToAddress1: [
    'address',
    'address1',
    'addressline1',
    'street',
    'streetaddress',
    'shiptoaddress',
    'recipientaddress',
    'adresse',
    'strasse',
    'adresse1',
    'direccion',
    'calle',
  ],
  ToAddress2: [
    'address2',
    'addressline2',
    'apt',
    'suite',
    'unitnumber',
    'adresszusatz',
    'complementdadresse',
    'adresse2',
    'direccion2',
  ],
  ToCity: ['city', 'town', 'shiptocity', 'stadt', 'ort', 'ville', 'ciudad', 'localidad'],
  ToState: ['state', 'province', 'region', 'stateprovince', 'county', 'shiptostate', 'bundesland', 'provincia', 'estado'],
  ToPostalCode: [
    'zip',
    'zipcode',
    'postalcode',
    'postcode',
    'postal',
    'shiptozip',
    'postleitzahl',
    'plz',
    'codepostal',
    'codigopostal',
    'cp',
  ],
  ToCountry: [
    'country',
    'countrycode',
    'shiptocountry',
    'land',
    'zielland',
    'pays',
    'paysdedestination',
    'pais',
    'paisdedestino',
  ],
  CustomsHSCode: [
    'hscode',
    'hs',
    'hstariff',
    'hstariffnumber',
    'tariffcode',
    'tariffnumber',
    'harmonizedcode',
    'harmonisedcode',
    'commoditycode',
    'zolltarifnummer',
    'warennummer',
    'zolltarif',
    'codesh',
    'nomenclature',
    'numerotarifaire',
    'positiontarifaire',
    'codigoarancelario',
    'partidaarancelaria',
    'codigosa',
    'fraccionarancelaria',
  ],
  CustomsDescription: [
    'description',
    'itemdescription',
    'goodsdescription',
    'contents',
    'descriptionofcontents',
    'customsdescription',
    'warenbeschreibung',
    'beschreibung',
    'inhalt',
    'descriptiondesmarchandises',
    'designation',
    'contenu',
    'descripcion',
    'descripciondelamercancia',
    'contenido',
  ],
  CustomsValue: [
    'value',
    'declaredvalue',
    'customsvalue',
    'itemvalue',
    'wert',
    'warenwert',
    'zollwert',
    'valeur',
    'valeurdeclaree',
    'valor',
    'valordeclarado',
  ],
  CustomsCurrency: ['currency', 'currencycode', 'wahrung', 'devise', 'monnaie', 'moneda', 'divisa'],
  CustomsOriginCountry: [
    'origin',
    'origincountry',
    'countryoforigin',
    'coo',
    'madein',
    'ursprungsland',
    'herkunftsland',
    'ursprung',
    'paysdorigine',
    'origine',
    'paisdeorigen',
    'origen',
  ],
  CustomsQuantity: ['quantity', 'qty', 'pieces', 'anzahl', 'menge', 'stuckzahl', 'quantite', 'cantidad'],
  CustomsNetWeight: ['netweight', 'itemweight', 'nettogewicht', 'eigenmasse', 'poidsnet', 'pesoneto'],
};

const UNIT_SUFFIX = /^(.*?)[\s_-]*[([]\s*(lbs?|pounds?|kgs?|kilos?|kilograms?|oz|ounces?)\s*[)\]]\s*$/i;
const UNITS: Record<string, 'lb' | 'kg' | 'oz'> = {
  lb: 'lb',
  lbs: 'lb',
  pound: 'lb',
  pounds: 'lb',
  kg: 'kg',
  kgs: 'kg',
  kilo: 'kg',
  kilos: 'kg',
  kilogram: 'kg',
  kilograms: 'kg',
  oz: 'oz',
  ounce: 'oz',
  ounces: 'oz',
};

export function headerUnit(header: string): 'lb' | 'kg' | 'oz' | undefined {
  const unit = UNIT_SUFFIX.exec(header.trim())?.[2];
  return unit ? UNITS[unit.toLowerCase()] : undefined;
}

export interface ColumnMatch<F extends string> {
  field: F;
  unit?: 'lb' | 'kg' | 'oz';
}

export function matchHeader<F extends string>(header: string, fields: readonly F[]): ColumnMatch<F> | null {
  const suffix = UNIT_SUFFIX.exec(header.trim());
  const unit = headerUnit(header);
  const name = normaliseHeader(suffix?.[1] ?? header);
  if (!name) return null;
  for (const field of fields) {
    if (normaliseHeader(field) === name || SYNONYMS[field]?.includes(name)) {
      return unit && field === 'PackageWeight' ? { field, unit } : { field };
    }
  }
  return null;
}

export interface ColumnMapping<F extends string> {
  /** Null: the column is ignored. A field is taken by the first column that names it. */
  fields: (F | null)[];
  /** From the headers: a "Weight (kg)" column makes kg the unit of rows that give none. */
  defaults: { field: F; value: string }[];
}

// `remembered` (normalised header → field, or '' to ignore) is tried first.
export function mapHeaders<F extends string>(
  headers: readonly string[],
  fields: readonly F[],
  remembered: Readonly<Record<string, string>> = {},
): ColumnMapping<F> {
  const used = new Set<F>();
  const known = new Set<string>(fields);
  const isField = (name: string): name is F => known.has(name);
  const mapped = headers.map((header): F | null => {
    const key = normaliseHeader(header);
    const recalled = Object.hasOwn(remembered, key) ? remembered[key] : undefined;
    if (recalled === '') return null;
    const field = recalled !== undefined && isField(recalled) ? recalled : matchHeader(header, fields)?.field;
    if (!field || used.has(field)) return null;
    used.add(field);
    return field;
  });
  return { fields: mapped, defaults: headerDefaults(headers, mapped, fields) };
}

export function headerDefaults<F extends string>(
  headers: readonly string[],
  mapped: readonly (F | null)[],
  fields: readonly F[],
): { field: F; value: string }[] {
  const unitField = fields.find((f) => f === 'PackageWeightUnit');
  const weight = mapped.findIndex((f) => f === 'PackageWeight');
  const unit = weight < 0 ? undefined : headerUnit(headers[weight] ?? '');
  return unit && unitField ? [{ field: unitField, value: unit }] : [];
}

// A header when at least two of its filled cells (or its only one) name a field, and at least half of them do.
export function isHeaderRow(row: readonly string[], fields: readonly string[]): boolean {
  const filled = row.filter((cell) => cell.trim() !== '');
  if (filled.length === 0) return false;
  const matched = filled.filter((cell) => matchHeader(cell, fields) !== null).length;
  return (matched >= 2 || (filled.length === 1 && matched === 1)) && matched * 2 >= filled.length;
}

const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;

// With `decimalComma` (a `;`-separated file, as European spreadsheets write them) 1,5 in a numeric field reads 1.5.
export function mapRow<F extends string>(
  cells: readonly string[],
  mapping: ColumnMapping<F>,
  options: { decimalComma?: boolean; numeric?: ReadonlySet<string> } = {},
): Partial<Record<F, string>> {
  const out: Partial<Record<F, string>> = {};
  mapping.fields.forEach((field, i) => {
    let cell = cells[i]?.trim();
    if (!field || !cell) return;
    if (options.decimalComma && options.numeric?.has(field) && DECIMAL_COMMA.test(cell)) cell = cell.replace(',', '.');
    out[field] = cell;
  });
  for (const { field, value } of mapping.defaults) if (!out[field]) out[field] = value;
  return out;
}
