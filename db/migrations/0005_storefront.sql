CREATE TABLE "storefront_versions" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL,
	"bumped_in" bigint
);
--> statement-breakpoint
ALTER TABLE "storefront_versions" ADD CONSTRAINT "storefront_versions_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Storefront cache invalidation (docs/storefront.md). Every change to what the public catalog
-- shows bumps the shop's row in storefront_versions in the same transaction. The triggers are
-- deferred constraint triggers: they run at commit, after every other statement of the
-- transaction, so the version row is locked only for the moment of the commit (no lock-order
-- deadlocks with the rows the transaction touched), and a rolled-back write bumps nothing.
-- One bump per transaction is enough: `bumped_in` remembers the transaction.
CREATE OR REPLACE FUNCTION storefront_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sid text;
BEGIN
  IF TG_OP = 'DELETE' THEN sid := OLD.shop_id; ELSE sid := NEW.shop_id; END IF;
  INSERT INTO storefront_versions AS v (shop_id, version, bumped_in)
  SELECT sid, (extract(epoch FROM clock_timestamp()) * 1000)::bigint, txid_current()
  WHERE EXISTS (SELECT 1 FROM shops s WHERE s.id = sid)
  ON CONFLICT (shop_id) DO UPDATE SET version = v.version + 1, bumped_in = excluded.bumped_in
    WHERE v.bumped_in IS DISTINCT FROM excluded.bumped_in;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Products and variants: every change but one that only moves the stock count without crossing
-- zero (checkout reservations) or only touches updated_at; the storefront shows in_stock only.
CREATE CONSTRAINT TRIGGER storefront_products_write AFTER INSERT OR DELETE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION storefront_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER storefront_products_update AFTER UPDATE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((to_jsonb(OLD) - '{stock_quantity,updated_at}'::text[]) IS DISTINCT FROM (to_jsonb(NEW) - '{stock_quantity,updated_at}'::text[])
        OR (OLD.stock_quantity > 0) IS DISTINCT FROM (NEW.stock_quantity > 0))
  EXECUTE FUNCTION storefront_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER storefront_variants_write AFTER INSERT OR DELETE ON product_variants
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION storefront_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER storefront_variants_update AFTER UPDATE ON product_variants
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((to_jsonb(OLD) - '{stock_quantity,updated_at}'::text[]) IS DISTINCT FROM (to_jsonb(NEW) - '{stock_quantity,updated_at}'::text[])
        OR (OLD.stock_quantity > 0) IS DISTINCT FROM (NEW.stock_quantity > 0))
  EXECUTE FUNCTION storefront_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER storefront_images_write AFTER INSERT OR UPDATE OR DELETE ON product_images
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION storefront_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER storefront_listings_write AFTER INSERT OR UPDATE OR DELETE ON product_channel_listings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION storefront_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER storefront_channels_write AFTER INSERT OR UPDATE OR DELETE ON channels
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION storefront_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER storefront_domains_write AFTER INSERT OR UPDATE OR DELETE ON channel_domains
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION storefront_bump();
