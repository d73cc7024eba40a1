#!/usr/bin/env bash
# Development only (issue #9, before the migration lands): regenerates db/migrations/0010_partners.sql
# from the current tables, keeping the hand-written trigger SQL at its end. Run under
#   flock /tmp/partners-migration.lock bash scripts/regen-partners-migration.sh
set -euo pipefail
cd "$(dirname "$0")/.."
f=db/migrations/0010_partners.sql
tail_start=$(grep -n -- '-- Double entry:' "$f" | cut -d: -f1)
{ echo "--> statement-breakpoint"; tail -n +"$tail_start" "$f"; } > /tmp/partners-tail.sql
rm -f "$f" db/migrations/meta/0010_snapshot.json
node -e '
const fs=require("fs");const p="db/migrations/meta/_journal.json";const j=JSON.parse(fs.readFileSync(p));
j.entries=j.entries.filter(e=>e.tag!=="0010_partners");fs.writeFileSync(p,JSON.stringify(j,null,2)+"\n");'
npx drizzle-kit generate --name partners >/dev/null
cat /tmp/partners-tail.sql >> "$f"
echo "regenerated $f"
