-- Carrier scans (POST /ops/scans) name a package or container without an account: look them up by number alone.
-- CreateIndex
CREATE INDEX "container_manifests_container_id_idx" ON "container_manifests"("container_id");

-- CreateIndex
CREATE INDEX "container_packages_tracking_number_idx" ON "container_packages"("tracking_number");

-- CreateIndex
CREATE INDEX "packages_tracking_number_idx" ON "packages"("tracking_number");
