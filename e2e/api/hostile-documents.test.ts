import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, tracking } from './support/api';
import {
  api,
  auth,
  count,
  envelope,
  fill,
  owned,
  ownerLive,
  ownerTest,
  raw,
  reportAttacks,
  setUpAttackedAccounts,
  strangerTest,
} from './support/hostile-shipments';
import { containerSample } from './support/samples';

// The documents (a manifest's handover document, tags and labels, a package's label) attacked: ?format= and Accept
// values no document comes in, repeated and unknown parameters, hostile but storable text in what they print, and
// another account's or environment's ids. support/hostile-shipments.ts has the raw HTTP and the attacked accounts.

beforeAll(setUpAttackedAccounts);
afterAll(() => reportAttacks('hostile-documents'));

describe('documents: ?format=, Accept and hostile queries', () => {
  it('formats no document comes in, repeated and hostile format values: 406 not_acceptable; never a 5xx', async () => {
    const docs = ['/manifests/:id/document', '/manifests/:id/tags', '/manifests/:id/labels', '/packages/:TrackingNumber/label'];
    for (const doc of docs) {
      for (const query of [
        'format=gif',
        'format=%00',
        'format=PDF%00',
        'format=' + 'p'.repeat(10_000),
        'format=%ED%A0%80',
        'format=',
        'format=html',
      ]) {
        const answer = await raw('GET', `${api('test', fill(doc))}?${query}`, { headers: auth(ownerTest.get()) });
        count('documents');
        expect([406, 422], `${doc}?${query.slice(0, 40)} ${answer.text.slice(0, 200)}`).toContain(answer.status);
        envelope(answer, answer.status, answer.status === 406 ? 'not_acceptable' : 'validation_failed');
        expect(answer.text.length).toBeLessThan(2_000);
      }
      for (const accept of [
        'text/html',
        'application/json',
        'image/gif',
        'application/pdf;q=0',
        '*/*;q=0',
        `${'a/b,'.repeat(2_000)}x/y`,
        'application/pdf;q=abc;q=1;q=',
        '\u00ff/\u00ff',
      ]) {
        const answer = await raw('GET', api('test', fill(doc)), { headers: { ...auth(ownerTest.get()), accept } });
        count('documents');
        if (answer.status === 200) {
          // A malformed q is read leniently; what came back must be a document this route makes.
          expect(['application/pdf', 'application/zpl; charset=utf-8', 'image/png']).toContain(answer.headers['content-type']);
        } else {
          envelope(answer, 406, 'not_acceptable');
        }
      }
    }
  });

  it('?format= and Accept agree, the first of repeated format wins or it is refused; unknown parameters never 5xx', async () => {
    for (const query of [
      'format=pdf&format=zpl',
      'format=zpl&format=pdf',
      'format[]=pdf',
      'paper=%00',
      'paper=tabloid',
      'paper=a4&paper=letter',
      'nope=1',
      '__proto__=x',
    ]) {
      const answer = await raw('GET', `${api('test', fill('/manifests/:id/labels'))}?${query}`, {
        headers: auth(ownerTest.get()),
      });
      count('documents');
      expect(answer.status, `${query}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
      if (answer.status !== 200) envelope(answer, answer.status, answer.json?.error?.code);
    }
  });

  it('every document of a manifest whose stored text is hostile but storable (noncharacters, RTL, emoji, combining marks) is 200', async () => {
    for (const text of [
      '\uffff',
      'a\ufffeb',
      '\u202egnp.exe',
      '𝕏🚀👩‍👩‍👧',
      'e\u0301\u0301\u0301',
      'abc\u200b\ufeff',
      '中文 שלום مرحبا',
    ]) {
      const n = tracking('ATX');
      const body = containerSample(`ULD-${randomUUID().slice(0, 8)}`, [n]);
      Object.assign(body, { FromName: text, FromCompany: text, Consignee: text, ShipmentDescription: text, Reference1: text });
      Object.assign(body.ContainerDetails[0] as object, { ToName: text, ToAddress1: text, ToCity: text });
      const created = await call('/wf/manifest', { token: ownerTest.get(), body });
      expect(created.status, created.text).toBe(200);
      const id = created.json.ManifestID as string;
      for (const path of [
        `/manifests/${id}/document`,
        `/manifests/${id}/tags?format=zpl`,
        `/manifests/${id}/tags`,
        `/manifests/${id}/labels`,
        `/manifests/${id}/labels?format=zpl`,
        `/packages/${n}/label`,
        `/packages/${n}/label?format=png`,
        `/packages/${n}/label?format=zpl`,
      ]) {
        const answer = await raw('GET', api('test', path), { headers: auth(ownerTest.get()) });
        count('documents');
        expect(answer.status, `${JSON.stringify(text)} ${path}: ${answer.text.slice(0, 200)}`).toBe(200);
        expect(answer.bytes.length).toBeGreaterThan(100);
      }
    }
  });

  it("another account's and the other environment's documents are 404; the live path has the live one only", async () => {
    for (const doc of ['/manifests/:id/document', '/manifests/:id/tags', '/manifests/:id/labels']) {
      envelope(await raw('GET', api('test', fill(doc)), { headers: auth(strangerTest.get()) }), 404, 'not_found');
      envelope(await raw('GET', api('live', fill(doc)), { headers: auth(ownerLive.get()) }), 404, 'not_found');
      envelope(
        await raw('GET', api('test', fill(doc, { id: owned.liveManifest })), { headers: auth(ownerTest.get()) }),
        404,
        'not_found',
      );
      const own = await raw('GET', api('live', fill(doc, { id: owned.liveManifest })), { headers: auth(ownerLive.get()) });
      expect(own.status, own.text.slice(0, 200)).toBe(200);
      count('cross-account / env', 4);
    }
    envelope(
      await raw('GET', api('test', fill('/packages/:TrackingNumber/label', { trackingNumber: owned.liveNumber })), {
        headers: auth(ownerTest.get()),
      }),
      404,
      'not_found',
    );
    envelope(
      await raw('GET', api('test', fill('/packages/:TrackingNumber/label')), { headers: auth(strangerTest.get()) }),
      404,
      'not_found',
    );
    count('cross-account / env', 2);
  });
});
