/** Placeholder screen; its issue replaces it. */
export default function Page() {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-semibold">Unauthorized</h1>
    </main>
  );
}
