export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Carrier shipping service</h1>
      <p className="mt-4 text-slate-700">
        The JSON API answers under <code>/api/1.1/wf/*</code> (live) and <code>/version-test/api/1.1/wf/*</code> (test). See the README for
        examples.
      </p>
    </main>
  );
}
