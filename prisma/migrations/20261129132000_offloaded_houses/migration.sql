-- A house held by customs taken out of its container before departure (lib/customs/offload-package.ts): null while
-- it is aboard. The container's departure, its readiness and its holds leave an offloaded house out.
ALTER TABLE container_packages ADD COLUMN offloaded_at timestamptz(3);
