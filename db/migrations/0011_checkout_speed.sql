-- Aborts the running statement when a condition fails, so one statement can check what its own
-- data-modifying CTEs did (e.g. every stock row of a cart was reserved) and roll all of it back.
-- SQLSTATE CM001; the message names the business condition.
CREATE OR REPLACE FUNCTION commerce_assert(ok boolean, condition text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION USING ERRCODE = 'CM001', MESSAGE = condition;
  END IF;
  RETURN true;
END $$;
--> statement-breakpoint
-- Checkout memoizes the destination country and the shipping method per storefront version
-- (platform/versioned-memo.ts), so writes to what those lookups read bump the version too.
CREATE CONSTRAINT TRIGGER storefront_channel_countries_write AFTER INSERT OR UPDATE OR DELETE ON channel_countries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION storefront_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER storefront_shop_countries_write AFTER INSERT OR UPDATE OR DELETE ON shop_countries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION storefront_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER storefront_shipping_methods_write AFTER INSERT OR UPDATE OR DELETE ON shipping_methods
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION storefront_bump();
