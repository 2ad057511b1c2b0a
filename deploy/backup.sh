#!/usr/bin/env bash
# Backs up the workbench: the database (pg_dump custom format, or SQLite's online .backup) and the data directory's
# images and secrets, into one timestamped folder. Safe while the app runs (both are consistent online copies).
#   deploy/backup.sh /var/backups/fof          (reads DATABASE_URL and FOF_DATA_DIR from the environment or /etc/fof/fof.env)
set -euo pipefail
cd "$(dirname "$0")/.." # the app's folder: relative paths (FOF_DATA_DIR=./storage) and node modules resolve here
dest_root=$(realpath -m "${1:?usage: backup.sh DEST_DIR}")
if [ -z "${DATABASE_URL:-}" ] && [ -r /etc/fof/fof.env ]; then set -a; . /etc/fof/fof.env; set +a; fi
: "${DATABASE_URL:?DATABASE_URL is not set}"
: "${FOF_DATA_DIR:=./storage}"
mkdir -p "$dest_root"
dest=$(mktemp -d "$dest_root/fof-$(date -u +%Y%m%dT%H%M%SZ)-XXXX") # never reuses an earlier backup's folder
case "$DATABASE_URL" in
  postgres://*|postgresql://*)
    pg_dump --format=custom --no-owner --file="$dest/database.pgdump" "$DATABASE_URL"
    ;;
  file:*)
    db_file=${DATABASE_URL#file:}
    # .backup copies a consistent snapshot even while a worker writes (WAL).
    node -e 'const D=require("better-sqlite3");const d=new D(process.argv[1],{readonly:true});d.backup(process.argv[2]).then(()=>d.close())' "$db_file" "$dest/database.sqlite"
    ;;
  *) echo "unsupported DATABASE_URL" >&2; exit 2 ;;
esac
# Images are content-addressed files: copy them (and the session secret) as they are; the database is the index.
tar -C "$FOF_DATA_DIR" --exclude='./uploads' --exclude='*.db' --exclude='*.db-wal' --exclude='*.db-shm' -czf "$dest/data.tar.gz" .
( cd "$dest" && sha256sum database.* data.tar.gz > SHA256SUMS )
echo "$dest"
