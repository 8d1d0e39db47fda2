#!/bin/sh
# Entry point of the Render Desk image.
#
#   serve [flags]         a cluster node: main/serve.ts with the core's Node flags
#   cluster <command> …   the `render-desk cluster …` command line (e.g. `cluster init`)
#   anything else         run as given (e.g. `node deploy/create-bucket.ts …`)
#
# Secrets never go on a command line. The core reads RENDER_DESK_CLUSTER_FILE,
# RENDER_DESK_REDIS_PASSWORD_FILE and RENDER_DESK_S3_*_FILE itself; for the two secrets that it
# reads only from the environment, this script accepts the same `_FILE` convention, so that
# Docker and Kubernetes secrets (files) work for them too:
#   PGPASSWORD_FILE          → PGPASSWORD (the PostgreSQL password; the URL carries none)
#   RENDER_DESK_API_KEY_FILE → RENDER_DESK_API_KEY (an admin key with exactly this secret)
set -eu

from_file() {
  name="$1"
  eval "file=\${${name}_FILE:-}"
  [ -n "$file" ] || return 0
  eval "current=\${${name}:-}"
  if [ -n "$current" ]; then
    echo "render-desk: set ${name} or ${name}_FILE, not both." >&2
    exit 2
  fi
  if [ ! -r "$file" ]; then
    echo "render-desk: ${name}_FILE names ${file}, which this user (uid $(id -u)) cannot read." >&2
    exit 2
  fi
  # A trailing newline in a secret file is not part of the secret.
  value="$(cat "$file")"
  export "${name}=${value}"
  unset "${name}_FILE"
}

from_file PGPASSWORD
from_file RENDER_DESK_API_KEY

# `--import tsx` is resolved from the working directory: run from the app whatever it was.
cd /app

# The Node flags `npm run serve` starts the core with (main/core-process-env.ts): render-tuned,
# except on an API-only node (the last --role, else RENDER_DESK_ROLE), which renders no batch.
core_flags() {
  role="${RENDER_DESK_ROLE:-all}"
  while [ "$#" -gt 0 ]; do
    case "$1" in
      --role) [ "$#" -gt 1 ] && role="$2" && shift ;;
      --role=*) role="${1#--role=}" ;;
      --) break ;;
    esac
    shift
  done
  if [ "$role" = api ]; then
    echo "--heap-growing-percent=50"
  else
    echo "--single-threaded-gc --heap-growing-percent=300"
  fi
}

case "${1:-serve}" in
  serve)
    [ "$#" -gt 0 ] && shift
    core_flags="$(core_flags "$@")"
    # shellcheck disable=SC2086 # the flags are meant to split
    exec node $core_flags --import tsx main/serve.ts "$@"
    ;;
  cluster)
    exec node --import tsx main/cli/render-desk.ts "$@"
    ;;
  *)
    exec "$@"
    ;;
esac
