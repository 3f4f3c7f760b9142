import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// For tests: the IATA ONE Record ontology as published (lib/documents/fixtures/one-record, read by n3, a Turtle parser),
// and a check of a JSON-LD document against it. The document is expanded to triples by the rules of JSON-LD 1.1 for
// the forms our export writes (compact IRIs of the context's prefixes, @base-relative ids, value objects, nested and
// referenced nodes); anything else in it fails the check, so the check cannot pass by not understanding a node.
// Every typed node's @type must be a class of the ontology; each of its properties declared, not deprecated, used on
// a class that has it (a restriction on the class or a superclass, or the class its "Domain" note names), with
// values in its range (a datatype for a literal; a node or named individual of the range class for a reference), and
// no more values than a maximum cardinality of one allows.

const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
const OWL = 'http://www.w3.org/2002/07/owl#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
export const CARGO = 'https://onerecord.iata.org/ns/cargo#';

interface RdfTerm {
  termType: string;
  value: string;
}
interface Quad {
  subject: RdfTerm;
  predicate: RdfTerm;
  object: RdfTerm;
}
const require = createRequire(import.meta.url);
const { Parser } = require('n3') as { Parser: new () => { parse(text: string): Quad[] } };

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../documents/fixtures/one-record');

export interface Ontology {
  classes: Set<string>;
  superclasses: Map<string, Set<string>>;
  /** class → property → what its restrictions say */
  restrictions: Map<string, Map<string, { allValuesFrom: Set<string>; maxOne: boolean }>>;
  properties: Map<string, { ranges: Set<string>; domain?: string; deprecated: boolean }>;
  /** named individual → its classes */
  individuals: Map<string, Set<string>>;
  version: string;
}

let loaded: Ontology | undefined;

/** Both files of the 3.3.0 standard: the data model and the code lists it imports. */
export function oneRecordOntology(): Ontology {
  if (loaded) return loaded;
  const quads = ['IATA-1R-DM-Ontology.ttl', 'IATA-1R-CL-Ontology.ttl'].flatMap((file) =>
    new Parser().parse(readFileSync(path.join(FIXTURES, file), 'utf8')),
  );
  const bySubject = new Map<string, Quad[]>();
  for (const quad of quads) {
    const list = bySubject.get(quad.subject.value) ?? [];
    list.push(quad);
    bySubject.set(quad.subject.value, list);
  }
  const objects = (subject: string, predicate: string) =>
    (bySubject.get(subject) ?? []).filter((q) => q.predicate.value === predicate).map((q) => q.object);
  const ontology: Ontology = {
    classes: new Set(),
    superclasses: new Map(),
    restrictions: new Map(),
    properties: new Map(),
    individuals: new Map(),
    version: objects(CARGO.slice(0, -1), `${OWL}versionInfo`)[0]?.value ?? '',
  };
  for (const [subject, list] of bySubject) {
    const types = new Set(list.filter((q) => q.predicate.value === `${RDF}type`).map((q) => q.object.value));
    if (list[0]?.subject.termType !== 'NamedNode') continue;
    if (types.has(`${OWL}Class`)) {
      ontology.classes.add(subject);
      const supers = new Set<string>();
      const restrictions = new Map<string, { allValuesFrom: Set<string>; maxOne: boolean }>();
      for (const parent of objects(subject, `${RDFS}subClassOf`)) {
        if (parent.termType === 'NamedNode') {
          supers.add(parent.value);
          continue;
        }
        const property = objects(parent.value, `${OWL}onProperty`)[0]?.value;
        if (!property) continue;
        const entry = restrictions.get(property) ?? { allValuesFrom: new Set<string>(), maxOne: false };
        for (const range of objects(parent.value, `${OWL}allValuesFrom`)) entry.allValuesFrom.add(range.value);
        if (objects(parent.value, `${OWL}maxCardinality`).some((n) => n.value === '1')) entry.maxOne = true;
        restrictions.set(property, entry);
      }
      ontology.superclasses.set(subject, supers);
      ontology.restrictions.set(subject, restrictions);
    }
    if (types.has(`${OWL}ObjectProperty`) || types.has(`${OWL}DatatypeProperty`)) {
      // The data model states each property's domain as an annotation: "Domain :Class" (or owl:Thing).
      const note = objects(subject, `${OWL}comment`).find((c) => c.value.startsWith('Domain '))?.value;
      const domain = note?.slice('Domain '.length).trim();
      ontology.properties.set(subject, {
        ranges: new Set(objects(subject, `${RDFS}range`).map((r) => r.value)),
        domain:
          domain === undefined
            ? undefined
            : domain.startsWith(':')
              ? CARGO + domain.slice(1)
              : domain === 'owl:Thing'
                ? `${OWL}Thing`
                : domain,
        deprecated: objects(subject, `${OWL}deprecated`).some((d) => d.value === 'true'),
      });
    }
    if (types.has(`${OWL}NamedIndividual`)) {
      ontology.individuals.set(subject, new Set([...types].filter((t) => t !== `${OWL}NamedIndividual`)));
    }
  }
  loaded = ontology;
  return ontology;
}

/** `type` and every class above it. */
export function ancestors(ontology: Ontology, type: string): Set<string> {
  const seen = new Set<string>();
  const queue = [type];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(ontology.superclasses.get(next) ?? []));
  }
  return seen;
}

// ---------------------------------------------------------------------------------------------------------------
// JSON-LD, as our export writes it, to triples

export type Term =
  { kind: 'iri'; value: string } | { kind: 'blank'; value: string } | { kind: 'literal'; value: string; datatype: string };
export interface Triple {
  subject: string;
  predicate: string;
  object: Term;
}
export interface Expanded {
  triples: Triple[];
  types: Map<string, Set<string>>;
}

export function expandJsonLd(document: unknown): Expanded {
  if (!isObject(document)) throw new Error('a JSON-LD document is an object');
  const context = document['@context'];
  if (!isObject(context)) throw new Error('@context must be one object');
  const prefixes = new Map<string, string>();
  let base: string | undefined;
  for (const [key, value] of Object.entries(context)) {
    if (typeof value !== 'string') throw new Error(`@context ${key}: only prefixes and @base are written`);
    if (key === '@base') base = value;
    else if (key.startsWith('@')) throw new Error(`@context ${key}: not a form the export writes`);
    else prefixes.set(key, value);
  }
  const iri = (value: string): string => {
    if (value.startsWith('#')) {
      if (!base) throw new Error(`${value}: a relative id without @base`);
      return base.replace(/#.*$/, '') + value;
    }
    const match = /^([A-Za-z][\w-]*):(.*)$/.exec(value);
    if (match && prefixes.has(match[1]!)) return prefixes.get(match[1]!)! + match[2]!;
    if (/^https?:\/\//.test(value)) return value;
    throw new Error(`${value}: neither a compact IRI of the context nor an absolute IRI`);
  };
  const triples: Triple[] = [];
  const types = new Map<string, Set<string>>();
  let blanks = 0;

  const node = (value: Record<string, unknown>): Term => {
    const id = value['@id'];
    if (id !== undefined && typeof id !== 'string') throw new Error('@id must be a string');
    const subject: Term = id === undefined ? { kind: 'blank', value: `_:b${(blanks += 1)}` } : { kind: 'iri', value: iri(id) };
    const typeList = value['@type'] === undefined ? [] : Array.isArray(value['@type']) ? value['@type'] : [value['@type']];
    const mine = types.get(subject.value) ?? new Set<string>();
    for (const type of typeList) {
      if (typeof type !== 'string') throw new Error('@type must be a string');
      mine.add(iri(type));
    }
    if (mine.size > 0) types.set(subject.value, mine);
    for (const [key, raw] of Object.entries(value)) {
      if (key === '@id' || key === '@type') continue;
      if (key.startsWith('@')) throw new Error(`${key}: not a form the export writes in a node`);
      const predicate = iri(key);
      for (const item of Array.isArray(raw) ? raw : [raw])
        triples.push({ subject: subject.value, predicate, object: object(item) });
    }
    return subject;
  };
  const object = (value: unknown): Term => {
    if (typeof value === 'string') return { kind: 'literal', value, datatype: `${XSD}string` };
    if (typeof value === 'boolean') return { kind: 'literal', value: String(value), datatype: `${XSD}boolean` };
    if (typeof value === 'number')
      return { kind: 'literal', value: String(value), datatype: Number.isInteger(value) ? `${XSD}integer` : `${XSD}double` };
    if (!isObject(value)) throw new Error(`${JSON.stringify(value)}: not a value the export writes`);
    if ('@value' in value) {
      const extra = Object.keys(value).filter((k) => k !== '@value' && k !== '@type');
      if (extra.length > 0 || typeof value['@value'] !== 'string')
        throw new Error('a value object holds @value (text) and @type only');
      return {
        kind: 'literal',
        value: value['@value'],
        datatype: typeof value['@type'] === 'string' ? iri(value['@type']) : `${XSD}string`,
      };
    }
    if (Object.keys(value).length === 1 && typeof value['@id'] === 'string') return { kind: 'iri', value: iri(value['@id']) };
    return node(value);
  };

  const graph = document['@graph'];
  if (!Array.isArray(graph)) throw new Error('@graph must be an array');
  for (const each of graph) {
    if (!isObject(each)) throw new Error('every @graph member is a node');
    node(each);
  }
  return { triples, types };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------------------------
// The check

const short = (value: string) => value.replace(CARGO, 'cargo:').replace('https://onerecord.iata.org/ns/code-lists/', 'ccodes:');

/** Every way `expanded` departs from the ontology, one line each; none: it holds. */
export function ontologyProblems(ontology: Ontology, expanded: Expanded): string[] {
  const problems: string[] = [];
  const isA = (types: Iterable<string>, wanted: Set<string>) =>
    [...types].some((type) => [...ancestors(ontology, type)].some((a) => wanted.has(a)));
  for (const [subject, types] of expanded.types)
    for (const type of types)
      if (!ontology.classes.has(type)) problems.push(`${short(subject)}: @type ${short(type)} is not a class of the ontology`);
  const counts = new Map<string, number>();
  for (const { subject, predicate, object } of expanded.triples) {
    const where = `${short(subject)} ${short(predicate)}`;
    const types = expanded.types.get(subject);
    if (!types || types.size === 0) {
      problems.push(`${where}: its subject has no @type`);
      continue;
    }
    const property = ontology.properties.get(predicate);
    if (!property) {
      problems.push(`${where}: ${short(predicate)} is not a property of the ontology`);
      continue;
    }
    if (property.deprecated) problems.push(`${where}: ${short(predicate)} is deprecated`);
    const ranges = new Set(property.ranges);
    let maxOne = false;
    for (const type of types) {
      const above = ancestors(ontology, type);
      let restricted = false;
      for (const a of above) {
        const restriction = ontology.restrictions.get(a)?.get(predicate);
        if (!restriction) continue;
        restricted = true;
        maxOne ||= restriction.maxOne;
        for (const range of restriction.allValuesFrom) ranges.add(range);
      }
      // A property's domain is every class that restricts it (the ontology's own statement of where it is used) and
      // the class its "Domain" note names; owl:Thing there says nothing, so it admits no class by itself.
      const noted = property.domain !== undefined && property.domain !== `${OWL}Thing` && above.has(property.domain);
      if (!restricted && !noted)
        problems.push(`${where}: ${short(predicate)} is not a property of ${short(type)} or a class above it`);
    }
    if (object.kind === 'literal') {
      if (!ranges.has(object.datatype))
        problems.push(`${where}: a ${short(object.datatype)} literal, range ${[...ranges].map(short).join(', ')}`);
    } else {
      const objectTypes = expanded.types.get(object.value) ?? ontology.individuals.get(object.value);
      if (!objectTypes)
        problems.push(`${where}: ${short(object.value)} is neither a typed node of the document nor a named individual`);
      else if (!isA(objectTypes, ranges))
        problems.push(
          `${where}: ${short(object.value)} is a ${[...objectTypes].map(short).join(', ')}, range ${[...ranges].map(short).join(', ')}`,
        );
    }
    const key = `${subject} ${predicate}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (maxOne && counts.get(key) === 2) problems.push(`${where}: more than one value, at most one allowed`);
  }
  return problems;
}
