#!/usr/bin/env bash
# Restores a backup made by deploy/backup.sh into an EMPTY database and data directory (stop the web and worker
# units first). Checks the backup's checksums before touching anything.
#   deploy/restore.sh /var/backups/fof/fof-20261123T120000Z
set -euo pipefail
cd "$(dirname "$0")/.." # the app's folder: relative paths (FOF_DATA_DIR=./storage) and node modules resolve here
src=$(realpath "${1:?usage: restore.sh BACKUP_DIR}")
if [ -z "${DATABASE_URL:-}" ] && [ -r /etc/fof/fof.env ]; then set -a; . /etc/fof/fof.env; set +a; fi
: "${DATABASE_URL:?DATABASE_URL is not set}"
: "${FOF_DATA_DIR:=./storage}"
( cd "$src" && sha256sum --check --quiet SHA256SUMS )
mkdir -p "$FOF_DATA_DIR"
if [ -n "$(ls -A "$FOF_DATA_DIR" 2>/dev/null | grep -v '^lost+found$' || true)" ]; then echo "refusing: $FOF_DATA_DIR is not empty" >&2; exit 3; fi
case "$DATABASE_URL" in
  postgres://*|postgresql://*)
    pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL" "$src/database.pgdump"
    ;;
  file:*)
    db_file=${DATABASE_URL#file:}
    [ -e "$db_file" ] && { echo "refusing: $db_file exists" >&2; exit 3; }
    cp "$src/database.sqlite" "$db_file"
    ;;
  *) echo "unsupported DATABASE_URL" >&2; exit 2 ;;
esac
tar -C "$FOF_DATA_DIR" -xzf "$src/data.tar.gz"
echo "restored $src"
