-- What a priced package's ledger row costs at acceptance (docs/decisions/money.md, "Cost"): the row is written by the
-- package's own statement, so every index entry and check on billing_entries is paid by every package accepted.

-- A package's entries were indexed whatever their kind. A charge is found by its unique key (void.ts, adjust-store.ts);
-- the only look-up by package that is not of a charge is void.ts's "is this invoiced charge credited already", which
-- names kind = 'void'. So these index voids only, and a charge writes three index entries, not four.
DROP INDEX "billing_entries_package_idx";
DROP INDEX "billing_entries_container_package_idx";
CREATE INDEX "billing_entries_package_void_idx" ON "billing_entries" ("package_id")
    WHERE "kind" = 'void' AND "package_id" IS NOT NULL;
CREATE INDEX "billing_entries_container_package_void_idx" ON "billing_entries" ("container_package_id")
    WHERE "kind" = 'void' AND "container_package_id" IS NOT NULL;

-- No foreign key to accounts: its check (a query and a key-share lock of the account's row, which every package of
-- the account locks at once) ran for every charge. The account is checked anyway: a charge is written by the
-- statement that inserts its package, whose own foreign key checks the same account_id; an adjustment or a void
-- copies account_id from its charge row. Nothing else writes the ledger. The cascade it gave, a trigger keeps.
ALTER TABLE "billing_entries" DROP CONSTRAINT "billing_entries_account_id_fkey";
CREATE FUNCTION billing_entries_follow_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM billing_entries WHERE account_id = OLD.id;
  RETURN OLD;
END $$;
CREATE TRIGGER "billing_entries_follow_account" AFTER DELETE ON "accounts"
    FOR EACH ROW EXECUTE FUNCTION billing_entries_follow_account();
