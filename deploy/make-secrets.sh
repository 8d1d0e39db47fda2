#!/bin/sh
# Creates deploy/secrets/ with random secrets for the compose example (letters and digits only,
# which every service accepts unquoted). Existing files are kept, so running it again changes
# nothing. The folder is readable by you alone; the files inside are world-readable so that the
# containers' unprivileged users (node, redis, postgres) can read their bind-mounted copies.
set -eu
cd "$(dirname "$0")"
mkdir -p secrets
chmod 700 secrets

random() {
  LC_ALL=C tr -dc 'A-Za-z0-9' < /dev/urandom | head -c "$1"
}

make_secret() {
  file="secrets/$1"
  if [ -s "$file" ]; then
    echo "kept    $file"
    return
  fi
  (umask 022 && random "$2" > "$file")
  echo "created $file"
}

make_secret postgres_password 32
make_secret redis_password 32
make_secret s3_access_key_id 20
make_secret s3_secret_access_key 40
# The admin API key scripts use: at least 16 characters, no spaces.
make_secret api_key 40
