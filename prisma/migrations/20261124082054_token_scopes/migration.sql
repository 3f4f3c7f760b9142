-- Scoped API tokens (issue 18, docs/decisions/scopes.md). Every existing token gets full_access = true (the
-- column's default), so it keeps calling every route, as it did.
-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "created_by_user_id" UUID,
ADD COLUMN     "full_access" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateIndex
CREATE INDEX "api_tokens_created_by_user_id_idx" ON "api_tokens"("created_by_user_id");

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_created_by_user_id_fkey" FOREIGN KEY ("created_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Full access with no list, or exactly the listed scopes (at least one). A trigger, not a CHECK: the WebAssembly
-- schema engine behind `npm run db:diff` panics on CHECK constraints (see 20261123050339_lifecycle).
CREATE FUNCTION "api_tokens_scopes_consistent"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW."scopes" IS NULL OR NEW."full_access" <> (cardinality(NEW."scopes") = 0) THEN
        RAISE EXCEPTION 'api_tokens: a token has full access and no scopes, or at least one scope and not full access'
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER "api_tokens_scopes_consistent"
    BEFORE INSERT OR UPDATE OF "full_access", "scopes" ON "api_tokens"
    FOR EACH ROW EXECUTE FUNCTION "api_tokens_scopes_consistent"();
