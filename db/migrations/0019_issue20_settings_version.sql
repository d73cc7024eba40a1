-- Checkout memoizes two shop settings per storefront version (platform/versioned-memo.ts): the
-- company settings its tax context reads (oss_registered, vies_unavailable) and the shop's
-- max_line_quantity. Writes to them bump the version in their own transaction, like every other
-- input of a memoized lookup (migration 0005_storefront).
CREATE CONSTRAINT TRIGGER storefront_company_settings_write AFTER INSERT OR UPDATE OR DELETE ON company_settings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION storefront_bump();
--> statement-breakpoint
-- The shops row has no shop_id column: its own id is the shop.
CREATE OR REPLACE FUNCTION storefront_bump_shop() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO storefront_versions AS v (shop_id, version, bumped_in)
  VALUES (NEW.id, (extract(epoch FROM clock_timestamp()) * 1000)::bigint, txid_current())
  ON CONFLICT (shop_id) DO UPDATE SET version = v.version + 1, bumped_in = excluded.bumped_in
    WHERE v.bumped_in IS DISTINCT FROM excluded.bumped_in;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER storefront_shop_checkout_settings AFTER UPDATE ON shops
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.max_line_quantity IS DISTINCT FROM NEW.max_line_quantity)
  EXECUTE FUNCTION storefront_bump_shop();
